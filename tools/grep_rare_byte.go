package tools

import (
	"bytes"
	"unicode"
)

// rareByte is the byte of a literal the candidate search jumps between
// (bytes.IndexByte), and where it sits in the literal.
type rareByte struct {
	off int  // offset in the literal
	lo  byte // the byte (lower case for a case-insensitive literal)
	up  byte // a case-insensitive literal's upper case of it; lo otherwise
}

func newRareByte(lit []byte, off int, fold bool) rareByte {
	r := rareByte{off: off, lo: lit[off], up: lit[off]}
	if fold {
		r.up = byte(unicode.ToUpper(rune(r.lo)))
	}
	return r
}

// rareSampleBytes: a buffer this large is taken as a sample of the
// searched text. Smaller ones (most files) use the fixed table's choice
// until a large one comes.
const rareSampleBytes = 16 << 10

// rareFor is the rare byte to search buf for. The fixed table
// (byteFrequencyOrder) is a guess for text in general; a search's own
// files can differ (in Go code 'f' of "func main" is half again as common
// as 'm'; in "TODO" 'T' twice as common as 'D'). Each hit of the rare byte
// costs a call and a comparison, so the first buffer of at least
// rareSampleBytes decides, once per search, by counting each of the
// literal's bytes in it.
func (m *lineMatcher) rareFor(buf []byte) rareByte {
	if m.kind != findLiteral && m.kind != findFoldLiteral {
		return m.rare
	}
	if r := m.adapted.Load(); r != nil {
		return *r
	}
	if len(buf) < rareSampleBytes {
		return m.rare
	}
	m.adaptOnce.Do(func() {
		r := chooseRareByte(m.lit, buf, m.rare, m.kind == findFoldLiteral)
		m.adapted.Store(&r)
	})
	return *m.adapted.Load()
}

// chooseRareByte returns the byte of lit least frequent in sample (both
// cases counted when fold); on a tie the fixed table's choice (guess)
// stands.
func chooseRareByte(lit, sample []byte, guess rareByte, fold bool) rareByte {
	count := func(r rareByte) int {
		n := bytes.Count(sample, []byte{r.lo})
		if r.up != r.lo {
			n += bytes.Count(sample, []byte{r.up})
		}
		return n
	}
	best, bestCount := guess, count(guess)
	for i, b := range lit {
		if b == best.lo {
			continue
		}
		r := newRareByte(lit, i, fold)
		if n := count(r); n < bestCount {
			best, bestCount = r, n
		}
	}
	return best
}
