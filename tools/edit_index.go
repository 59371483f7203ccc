package tools

import "strings"

// oldStringFinder finds old_string in a file's text by the rarest byte of
// old_string (grep's byte order) rather than strings.Index's first byte:
// an old_string starting with a common letter ("benchMarker", "return")
// has strings.Index call IndexByte at every occurrence of that letter
// (several a line of text), while its rare byte ('M', 'u') is passed over
// vectorised. Where the rare byte turns out common in this text (more than
// one miss in 16 bytes), strings.Index takes over for the rest, and it
// moves on to a vectorised search of the whole string then.
type oldStringFinder struct {
	old   string
	rare  int // offset in old of the byte searched for
	fails int
}

func newOldStringFinder(old string) *oldStringFinder {
	return &oldStringFinder{old: old, rare: rarestByte([]byte(old))}
}

// next is strings.Index(text[from:], old)+from, or -1: the first
// occurrence at or after from.
func (f *oldStringFinder) next(text string, from int) int {
	if f.old == "" || f.fails > 8 && f.fails > from>>4 {
		if i := strings.Index(text[from:], f.old); i >= 0 {
			return from + i
		}
		return -1
	}
	rare := f.old[f.rare]
	for at := from + f.rare; at < len(text); at++ {
		j := strings.IndexByte(text[at:], rare)
		if j < 0 {
			return -1
		}
		at += j
		if start := at - f.rare; strings.HasPrefix(text[start:], f.old) {
			return start
		}
		if f.fails++; f.fails > 8 && f.fails > at>>4 {
			return f.next(text, at-f.rare+1)
		}
	}
	return -1
}
