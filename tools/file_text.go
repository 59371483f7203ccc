package tools

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// binarySniffBytes is how much of a file is looked at to call it binary
// (git and grep look at the first 8000 bytes the same way).
const binarySniffBytes = 8 << 10

// isBinary reports whether text looks like binary data: a NUL byte in the
// first 8 KiB, or more than a tenth of that sample not valid UTF-8 (a few
// stray Latin-1 bytes in a text file are tolerated).
func isBinary(text string) bool {
	sample := text
	if len(sample) > binarySniffBytes {
		sample = sample[:binarySniffBytes]
	}
	if strings.IndexByte(sample, 0) >= 0 {
		return true
	}
	invalid := 0
	for i := 0; i < len(sample); {
		r, size := utf8.DecodeRuneInString(sample[i:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRuneInString(sample[i:]) {
				break // a sequence cut by the sample's end, not an error
			}
			invalid++
		}
		i += max(size, 1)
	}
	return invalid*10 > len(sample)
}

// countLines counts lines the way an editor shows them: a final line
// without a newline counts, an empty text has none.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}

// isCRLF reports whether every line break in text is \r\n (and there is at
// least one): such a file is edited with \n-normalized matching and written
// back with \r\n. Mixed files are matched as they are, so lines the edit
// does not touch keep their endings.
func isCRLF(text string) bool {
	if strings.IndexByte(text, '\r') < 0 { // most texts: no line count needed
		return false
	}
	lf := strings.Count(text, "\n")
	return lf > 0 && strings.Count(text, "\r\n") == lf
}

// notFoundError is the error for a missing file, pointing at glob.
func notFoundError(rel string) error {
	return fmt.Errorf("file not found: %s; use glob to find the right path", rel)
}

// maxListedEntries bounds the directory listing in a "is a directory" error.
const maxListedEntries = 40

// directoryError says that abs is a directory and what it holds, so the
// model can pick a file without another call.
func directoryError(ws *Workspace, abs, rel string) error {
	entries, err := ws.ReadDir(abs)
	if err != nil {
		return fmt.Errorf("%s is a directory, not a file", rel)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		names = append(names, name)
	}
	sort.Strings(names)
	more := ""
	if len(names) > maxListedEntries {
		more = fmt.Sprintf(", … and %d more", len(names)-maxListedEntries)
		names = names[:maxListedEntries]
	}
	if len(names) == 0 {
		return fmt.Errorf("%s is a directory (empty), not a file", rel)
	}
	return fmt.Errorf("%s is a directory, not a file; it contains: %s%s", rel, strings.Join(names, ", "), more)
}
