package tools

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/agent-lsp/agent-lsp/permission"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		context       int
		want          string
	}{
		{name: "equal", before: "a\n", after: "a\n", want: ""},
		{name: "one line changed", before: "a\nb\nc\nd\ne\n", after: "a\nb\nX\nd\ne\n", context: 1,
			want: "--- a/f.go\n+++ b/f.go\n@@ -2,3 +2,3 @@\n b\n-c\n+X\n d\n"},
		{name: "new file", before: "", after: "x\ny\n", context: 3,
			want: "--- a/f.go\n+++ b/f.go\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{name: "final newline removed", before: "a\n", after: "a", context: 3,
			want: "--- a/f.go\n+++ b/f.go\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n"},
		{name: "negative context is zero", before: "a\nb\nc\n", after: "a\nB\nc\n", context: -5,
			want: "--- a/f.go\n+++ b/f.go\n@@ -2 +2 @@\n-b\n+B\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnifiedDiff("f.go", tt.before, tt.after, tt.context); got != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestUnifiedDiffIsCompact(t *testing.T) {
	// One change in a long file: the diff shows the hunk, not the file.
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("same line\n")
	}
	before := b.String()
	after := strings.Replace(before, "same line\n", "changed\n", 1)
	d := UnifiedDiff("big.txt", before, after, 3)
	if n := strings.Count(d, "\n"); n > 10 {
		t.Fatalf("diff of a one-line change has %d lines:\n%s", n, d)
	}
}

// wholeUnified is UnifiedDiff as it was before the window: udiff's
// unified diff of edits made on the whole text.
func wholeUnified(path, before string, edits []udiff.Edit, context int) string {
	out, err := udiff.ToUnified("a/"+path, "b/"+path, before, edits, context)
	if err != nil {
		return "(diff unavailable: " + err.Error() + ")"
	}
	return out
}

// wholeHunks is EditHunks as it was before the window: each hunk's lines
// counted and its diff made on the whole text.
func wholeHunks(before string, edits []udiff.Edit) []permission.Hunk {
	var hs []permission.Hunk
	for i, e := range lineRuns(edits) {
		first := 1 + strings.Count(before[:e.Start], "\n")
		d, err := udiff.ToUnified("a", "b", before, []udiff.Edit{e}, hunkContext)
		if err != nil {
			d = "(diff unavailable: " + err.Error() + ")"
		}
		hs = append(hs, permission.Hunk{ID: i + 1, StartLine: first, EndLine: first + countSpanLines(before[e.Start:e.End]) - 1,
			OldText: before[e.Start:e.End], NewText: e.New, Diff: d[strings.Index(d, "@@"):]})
	}
	return hs
}

// changedLines is how many lines edits delete and insert.
func changedLines(before string, edits []udiff.Edit) int {
	n := 0
	for _, e := range edits {
		n += countSpanLines(before[e.Start:e.End]) + countSpanLines(e.New)
	}
	return n
}

// checkWindowedDiff checks UnifiedDiff and EditHunks, made on the lines
// around LineDiff's edits, against udiff's output for the same edits on
// the whole text, and LineDiff against udiff.Lines: exactly when exact,
// else (a change among repeated lines) as a diff as small that makes after.
func checkWindowedDiff(t *testing.T, before, after string, exact bool) {
	t.Helper()
	if before == after {
		return
	}
	edits, whole := LineDiff(before, after), udiff.Lines(before, after)
	switch got, err := udiff.Apply(before, edits); {
	case err != nil || got != after:
		t.Fatalf("LineDiff(%q, %q) = %v makes %q (%v)", before, after, edits, got, err)
	case exact && !slices.Equal(edits, whole):
		t.Fatalf("LineDiff(%q, %q) = %v, udiff.Lines = %v", before, after, edits, whole)
	case changedLines(before, edits) != changedLines(before, whole):
		t.Fatalf("LineDiff(%q, %q) = %v changes %d lines, udiff.Lines = %v %d", before, after,
			edits, changedLines(before, edits), whole, changedLines(before, whole))
	}
	for _, c := range []int{0, 1, 3} {
		if got, want := UnifiedDiff("f", before, after, c), wholeUnified("f", before, edits, c); got != want {
			t.Fatalf("UnifiedDiff(%q, %q, %d) =\n%s\nwhole-text diff:\n%s", before, after, c, got, want)
		}
	}
	if got, want := EditHunks(before, after), wholeHunks(before, edits); !reflect.DeepEqual(got, want) {
		t.Fatalf("EditHunks(%q, %q) =\n%+v\nwhole-text hunks:\n%+v", before, after, got, want)
	}
}

func TestDiffWindowSameAsWholeText(t *testing.T) {
	lines := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "line %d\n", i)
		}
		return b.String()
	}
	long := lines(1, 40)
	tests := []struct{ name, before, after string }{
		{"one character mid-file", long, strings.Replace(long, "line 20\n", "line 2O\n", 1)},
		{"first line", long, "LINE 1\n" + lines(2, 40)},
		{"last line", long, lines(1, 39) + "line 40!\n"},
		{"last line loses its newline", long, strings.TrimSuffix(long, "\n")},
		{"last line gains a newline", "a\nb", "a\nb\n"},
		{"a line added at the end without newline", "a\nb", "a\nb\nc"},
		{"a prefix of the other", "a\nb\n", "a\nb\nc\nd\n"},
		{"the other way", "a\nb\nc\nd\n", "a\nb\n"},
		{"a line inside a line", "ab\n", "a\nb\n"},
		{"empty before", "", "x\ny\n"},
		{"empty after", "x\ny\n", ""},
		{"repeated lines, one removed", "a\na\na\na\n", "a\na\na\n"},
		{"repeated lines, one added", "a\na\n", "a\na\na\n"},
		{"two changes far apart", long, strings.Replace(strings.Replace(long, "line 5\n", "five\n", 1), "line 35\n", "thirty-five\n", 1)},
		{"two changes close together", long, strings.Replace(strings.Replace(long, "line 5\n", "five\n", 1), "line 9\n", "nine\n", 1)},
		{"lines inserted near the start", long, lines(1, 2) + "new\nnewer\n" + lines(3, 40)},
		{"lines deleted near the end", long, lines(1, 37) + lines(40, 40)},
		{"change at a common partial line", "xa\nfoo\n", "xb\nfoo\n"},
		{"shared tail within a line", "one\ntwo end\n", "one\nthree end\n"},
		{"CRLF", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\n"},
		{"no newline anywhere", "abc", "abd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkWindowedDiff(t, tt.before, tt.after, true) })
	}
}

// A quick randomized comparison. Texts of few distinct lines make diffs
// ambiguous (where the hunk's place may differ, not its size, nor the
// window's output); texts of distinct lines have one best diff, which
// LineDiff must find.
func TestDiffWindowSameAsWholeTextRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	pieces := []string{"a\n", "b\n", "a\n", "\n", "ab\n", "a", "b", "x\r\n"}
	serial := 0
	text := func(n int, distinct bool) string {
		var b strings.Builder
		for range n {
			if distinct {
				serial++
				fmt.Fprintf(&b, "line %d\n", serial)
			} else {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		return b.String()
	}
	for i := 0; i < 4000; i++ {
		distinct := i%2 == 0
		// Under 20 lines and 6 changes the LCS never reaches its effort
		// limit, so both diffs are as small as can be.
		before := text(rng.IntN(20), distinct)
		after := before
		for range 1 + rng.IntN(3) {
			at := 0
			if distinct { // whole lines: cut between them
				at = strings.LastIndexByte(after[:rng.IntN(len(after)+1)], '\n') + 1
			} else {
				at = rng.IntN(len(after) + 1)
			}
			cut := at
			for range rng.IntN(2) {
				cut += strings.IndexByte(after[cut:], '\n') + 1
			}
			after = after[:at] + text(rng.IntN(2), distinct) + after[cut:]
		}
		checkWindowedDiff(t, before, after, distinct)
	}
}
