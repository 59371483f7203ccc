package tools

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The finder finds every occurrence strings.Index finds, in order, where
// its rare byte is rare and where it is everywhere (it hands over to
// strings.Index), with overlapping and adjacent occurrences.
func TestOldStringFinderIsStringsIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	alphabet := []string{"a", "b", "M", "\n", "ab", "aM", "Ma", " ", "x"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	all := func(text, old string, index func(from int) int) []int {
		var at []int
		for start := 0; start <= len(text); {
			i := index(start)
			if i < 0 {
				break
			}
			at = append(at, i)
			start = i + max(len(old), 1)
		}
		return at
	}
	for n := range 20000 {
		text := gen(rng.IntN(400))
		if n%3 == 0 {
			text = strings.Repeat("M", rng.IntN(300)) + text // the rare byte everywhere
		}
		old := gen(1 + rng.IntN(3))
		f := newOldStringFinder(old)
		got := all(text, old, func(from int) int { return f.next(text, from) })
		want := all(text, old, func(from int) int {
			if i := strings.Index(text[from:], old); i >= 0 {
				return from + i
			}
			return -1
		})
		if len(got) != len(want) {
			t.Fatalf("%q in %q: found at %v, strings.Index at %v", old, text, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q in %q: found at %v, strings.Index at %v", old, text, got, want)
			}
		}
	}
}
