package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// compareChunk is how much of a file fileHolds reads at a time.
const compareChunk = 64 << 10

// fileHolds reports whether the file at path exists and whether it holds
// exactly text, reading it in chunks against text rather than whole: the
// check before a write (DiskDocuments.Apply) then costs no copy of a large
// file. A file that is not a plain readable file is the error
// readFileText gives for it.
func fileHolds(ws *Workspace, path, text string) (same, exists bool, err error) {
	f, err := ws.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return text == "", false, nil
	}
	if err != nil {
		return false, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		_, _, err := readFileText(ws, path) // its error for a directory, a FIFO, …
		if err == nil {
			err = fmt.Errorf("%s is not a regular file", path)
		}
		return false, false, err
	}
	if fi.Size() != int64(len(text)) {
		return false, true, nil
	}
	buf := make([]byte, min(compareChunk, len(text)+1))
	at := 0
	for {
		n, err := f.Read(buf)
		if n > 0 {
			if at+n > len(text) || string(buf[:n]) != text[at:at+n] { // compared without a copy
				return false, true, nil
			}
			at += n
		}
		if err == io.EOF {
			return at == len(text), true, nil
		}
		if err != nil {
			return false, true, fmt.Errorf("read %s: %w", path, err)
		}
	}
}
