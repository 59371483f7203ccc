package tools

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// What a replacement knows its texts share is true of them, and the diffs
// made with it are the diffs made without it: random replacements
// (replace_all, \r\n files, old_string with a lone \r, edits at either
// end and of the final newline) in random texts.
func TestReplacementKnownEndsGiveTheSameDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	pieces := []string{"a", "b", "ab", "\n", "\r\n", "\r", " ", "x\n", "ba\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	tried, hinted := 0, 0
	for tried < 5000 {
		before := text(1 + rng.IntN(40))
		from := rng.IntN(len(before))
		old := before[from : from+1+rng.IntN(min(6, len(before)-from))]
		r, err := planReplace(before, old, text(rng.IntN(4)), rng.IntN(3) == 0)
		if err != nil {
			continue
		}
		tried++
		after := r.build()
		known := r.unchanged()
		if known != (Unchanged{}) {
			hinted++
		}
		if known.within(before, after) != known || before[:known.Prefix] != after[:known.Prefix] ||
			before[len(before)-known.Suffix:] != after[len(after)-known.Suffix:] {
			t.Fatalf("%q -> %q: the replacement claims %+v", before, after, known)
		}
		if got, want := LineDiffKnown(before, after, known), LineDiff(before, after); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q -> %q known %+v: diff %+v, want %+v", before, after, known, got, want)
		}
	}
	if hinted < tried/2 {
		t.Fatalf("only %d of %d replacements knew their ends", hinted, tried)
	}
}

// A known span that does not fit the texts is not trusted.
func TestKnownEndsThatDoNotFitAreIgnored(t *testing.T) {
	before, after := "one\ntwo\n", "one\nTWO\n"
	want := LineDiff(before, after)
	for _, k := range []Unchanged{{-1, 0}, {0, -2}, {5, 5}, {100, 0}} {
		if got := LineDiffKnown(before, after, k); !reflect.DeepEqual(got, want) {
			t.Errorf("known %+v: %+v, want %+v", k, got, want)
		}
	}
}
