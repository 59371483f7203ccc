package tools

import (
	"slices"
	"strings"
	"testing"
)

// TestRareByteFollowsTheSearchedText: the fixed table would jump between
// the 'f's of "func main" and the 'T's of "TODO"; in text full of those the
// search jumps between the bytes that are rarer there.
func TestRareByteFollowsTheSearchedText(t *testing.T) {
	cases := []struct {
		pattern    string
		ignoreCase bool
		line       string
		want       byte
	}{
		{"func main", false, "func fun fuf main ffff aa ii nn cc uu\n", 'm'},
		{"TODO", false, "TOTO TODO OO TT\n", 'D'},
		{"deadline", true, "Deadline DEAD dead LINE line Lin dine\n", 'a'},
	}
	for _, c := range cases {
		m, err := compileLineMatcher(c.pattern, c.ignoreCase)
		if err != nil {
			t.Fatal(err)
		}
		sample := []byte(strings.Repeat(c.line, rareSampleBytes/len(c.line)+1))
		if got := m.rareFor(sample[:100]); got != m.rare {
			t.Errorf("%q: a small buffer changed the choice to %q", c.pattern, got.lo)
		}
		got := m.rareFor(sample)
		if got.lo != c.want || m.lit[got.off]|0x20 != c.want|0x20 {
			t.Errorf("%q over %q: searched for %q at %d, want %q (fixed table: %q)", c.pattern, c.line, got.lo, got.off, c.want, m.rare.lo)
		}
		if again := m.rareFor([]byte(strings.Repeat("x", rareSampleBytes))); again != got {
			t.Errorf("%q: the choice changed within a search: %+v then %+v", c.pattern, got, again)
		}
	}
}

// TestScanAgreesWhicheverRareByte: any byte of the literal may be the one
// searched for; each gives the per-line regexp's lines.
func TestScanAgreesWhicheverRareByte(t *testing.T) {
	for _, p := range matcherPatterns {
		for _, ignoreCase := range []bool{false, true} {
			m, err := compileLineMatcher(p, ignoreCase)
			if err != nil {
				t.Fatalf("%q: %v", p, err)
			}
			if m.kind != findLiteral && m.kind != findFoldLiteral {
				continue
			}
			for off := range m.lit {
				r := newRareByte(m.lit, off, m.kind == findFoldLiteral)
				m.adapted.Store(&r)
				for i, text := range matcherTexts {
					if got, want := scanMatchingLines(m, []byte(text)), naiveMatchingLines(m.re, []byte(text)); !slices.Equal(got, want) {
						t.Errorf("pattern %q ignoreCase=%v rare byte %q at %d, text #%d: scan %v, per-line %v", p, ignoreCase, r.lo, off, i, got, want)
					}
				}
			}
		}
	}
}
