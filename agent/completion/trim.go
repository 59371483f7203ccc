package completion

import (
	"strings"
)

// maxSuffixLines is how many of the suffix's lines a repetition is
// compared with: enough to tell a repeated block from a lone brace.
const maxSuffixLines = 3

// finish post-processes the kept answer: trailing blank space goes, a
// repetition of the text after the cursor line is cut off, and the part
// of the cursor line's rest the answer ends with is measured as overlap
// (the suggestion replaces it instead of duplicating it). An answer that
// adds nothing is "".
func (sh shape) finish(text string) (insert string, overlap int) {
	text = strings.TrimRight(text, " \t\r\n")
	if !sh.midLine {
		text = cutRepeat(text, sh.after)
		text = strings.TrimRight(text, " \t\r\n")
		// A rest of whitespace only is left alone: replacing it gains nothing.
		return text, 0
	}
	overlap = restOverlap(text, sh.rest)
	if text == sh.rest[:overlap] {
		return "", 0
	}
	return text, overlap
}

// cutRepeat cuts the answer before the first of its lines (after the
// first) from which on it repeats the suffix's next lines, as models do
// when they write the closing brace the suffix already has.
func cutRepeat(text, after string) string {
	var want []string
	for l := range strings.Lines(after) {
		if l = strings.TrimRight(l, " \t\r\n"); l != "" {
			want = append(want, l)
			if len(want) == maxSuffixLines {
				break
			}
		}
	}
	if len(want) == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i := 1; i < len(lines); i++ {
		if repeats(lines[i:], want) {
			return strings.Join(lines[:i], "\n")
		}
	}
	return text
}

// repeats reports whether the non-blank lines of got begin as want does,
// as far as both go.
func repeats(got, want []string) bool {
	j := 0
	for _, g := range got {
		g = strings.TrimRight(g, " \t\r")
		if g == "" {
			continue
		}
		if j == len(want) {
			break
		}
		if g != want[j] {
			return false
		}
		j++
	}
	return j > 0
}

// restOverlap is how many bytes of the cursor line's rest the answer's
// end already holds: the longest start of rest the answer ends with,
// never splitting a word of rest (an answer ending in "e" does not eat
// the "e" of "end"). When the answer holds all of rest but trailing
// blanks, those go too.
func restOverlap(text, rest string) int {
	r := strings.TrimRight(rest, " \t")
	for k := len(r); k > 0; k-- {
		if !strings.HasSuffix(text, r[:k]) {
			continue
		}
		if k == len(r) {
			return len(rest)
		}
		if !isWordByte(r[k-1]) || !isWordByte(r[k]) {
			return k
		}
	}
	return 0
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}
