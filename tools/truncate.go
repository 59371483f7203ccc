package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Truncate shortens s to at most max bytes, keeping its head and its tail
// (where errors and summaries usually are) and putting a note in the middle
// that says how much was cut. Cuts fall on line boundaries when one is near,
// and never inside a UTF-8 sequence. A max too small for the note yields
// the note alone.
func Truncate(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	// The note's length depends on the numbers in it; size it with the
	// largest numbers it can hold, then fill the rest with text.
	budget := max - len(truncationNote(len(s), len(s), len(s)))
	if budget <= 0 {
		return truncationNote(len(s), strings.Count(s, "\n")+1, len(s))
	}
	headEnd := cutBackward(s, budget/2)
	tailStart := cutForward(s, len(s)-(budget-headEnd))
	cut := s[headEnd:tailStart]
	return s[:headEnd] + truncationNote(len(cut), strings.Count(cut, "\n"), len(s)) + s[tailStart:]
}

func truncationNote(cutBytes, cutLines, total int) string {
	return fmt.Sprintf("\n[… %d bytes (%d lines) cut from the middle of %d bytes …]\n", cutBytes, cutLines, total)
}

// lineSnap is how far (as a fraction of the kept part) a cut may move to
// land on a line boundary.
const lineSnapDivisor = 5

// cutBackward returns an end offset ≤ n for the head: just after a newline
// when there is one in the last fifth of the head, else at a rune boundary.
func cutBackward(s string, n int) int {
	if nl := strings.LastIndexByte(s[:n], '\n'); nl >= 0 && nl+1 >= n-n/lineSnapDivisor {
		return nl + 1
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// cutForward returns a start offset ≥ n for the tail: just after a newline
// when there is one in the first fifth of the tail, else at a rune boundary.
func cutForward(s string, n int) int {
	keep := len(s) - n
	if nl := strings.IndexByte(s[n:], '\n'); nl >= 0 && nl < keep/lineSnapDivisor {
		return n + nl + 1
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return n
}
