package tools

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	udiff "github.com/aymanbagabas/go-udiff"
)

func TestMerge3(t *testing.T) {
	base := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
	tests := []struct {
		name         string
		ours, theirs string
		want         string // "" with conflicts
		conflicts    []MergeConflict
	}{
		{name: "ours unchanged", ours: base, theirs: strings.Replace(base, "2\n", "two\n", 1),
			want: strings.Replace(base, "2\n", "two\n", 1)},
		{name: "theirs unchanged", ours: strings.Replace(base, "2\n", "two\n", 1), theirs: base,
			want: strings.Replace(base, "2\n", "two\n", 1)},
		{name: "far apart", ours: strings.Replace(base, "9\n", "nine\n", 1), theirs: strings.Replace(base, "2\n", "two\n", 1),
			want: strings.Replace(strings.Replace(base, "9\n", "nine\n", 1), "2\n", "two\n", 1)},
		{name: "adjacent lines", ours: strings.Replace(base, "3\n", "three\n", 1), theirs: strings.Replace(base, "2\n", "two\n", 1),
			want: strings.Replace(strings.Replace(base, "3\n", "three\n", 1), "2\n", "two\n", 1)},
		{name: "user inserts lines above", ours: "0\n" + base, theirs: strings.Replace(base, "5\n", "five\n", 1),
			want: "0\n" + strings.Replace(base, "5\n", "five\n", 1)},
		{name: "user deletes lines below", ours: strings.Replace(base, "8\n9\n", "", 1), theirs: strings.Replace(base, "1\n", "one\n", 1),
			want: strings.Replace(strings.Replace(base, "8\n9\n", "", 1), "1\n", "one\n", 1)},
		{name: "same change on both sides", ours: strings.Replace(base, "4\n", "four\n", 1), theirs: strings.Replace(base, "4\n", "four\n", 1),
			want: strings.Replace(base, "4\n", "four\n", 1)},
		{name: "same line", ours: strings.Replace(base, "4\n", "4 typed\n", 1), theirs: strings.Replace(base, "4\n", "four\n", 1),
			conflicts: []MergeConflict{{OursStart: 4, OursEnd: 4, TheirsStart: 4, TheirsEnd: 4}}},
		{name: "overlapping ranges", ours: strings.Replace(base, "3\n4\n5\n", "x\n", 1), theirs: strings.Replace(base, "5\n6\n", "y\n", 1),
			conflicts: []MergeConflict{{OursStart: 3, OursEnd: 5, TheirsStart: 5, TheirsEnd: 6}}},
		{name: "insertions at one place", ours: strings.Replace(base, "6\n", "6\nmine\n", 1), theirs: strings.Replace(base, "6\n", "6\nyours\n", 1),
			conflicts: []MergeConflict{{OursStart: 7, OursEnd: 6, TheirsStart: 7, TheirsEnd: 6}}},
		{name: "insertion inside a replaced block", ours: strings.Replace(base, "3\n4\n5\n", "x\ny\nz\n", 1), theirs: strings.Replace(base, "4\n", "4\nnew\n", 1),
			conflicts: []MergeConflict{{OursStart: 3, OursEnd: 5, TheirsStart: 5, TheirsEnd: 4}}},
		{name: "two conflicts", ours: strings.Replace(strings.Replace(base, "2\n", "b\n", 1), "9\n", "i\n", 1),
			theirs:    strings.Replace(strings.Replace(base, "2\n", "B\n", 1), "9\n", "I\n", 1),
			conflicts: []MergeConflict{{2, 2, 2, 2}, {9, 9, 9, 9}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, conflicts := Merge3(base, tt.ours, tt.theirs)
			if got != tt.want || len(conflicts) != len(tt.conflicts) {
				t.Fatalf("Merge3 = %q, %+v; want %q, %+v", got, conflicts, tt.want, tt.conflicts)
			}
			for i := range conflicts {
				if conflicts[i] != tt.conflicts[i] {
					t.Errorf("conflict %d = %+v, want %+v", i, conflicts[i], tt.conflicts[i])
				}
			}
		})
	}
}

func TestConflictError(t *testing.T) {
	err := ConflictError("x.go", "the user", []MergeConflict{{OursStart: 12, OursEnd: 14}, {OursStart: 30, OursEnd: 29}, {OursStart: 40, OursEnd: 40}})
	want := "edit conflict: the user edited lines 12–14 and added lines before line 30 and edited line 40 of x.go since you read it, " +
		"where your edit changes the text too; nothing was changed. Read x.go again and redo your edit"
	if !errors.Is(err, ErrEditConflict) || err.Error() != want {
		t.Errorf("got %q\nwant %q", err, want)
	}
}

// applyEdits makes what udiff.Apply makes of edits in order, and refuses
// edits out of order or out of the text.
func TestApplyEditsSameAsUdiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 5))
	for i := 0; i < 2000; i++ {
		src := strings.Repeat("ab\n", rng.IntN(10))
		var edits []udiff.Edit
		for at := 0; at <= len(src) && rng.IntN(4) != 0; {
			start := at + rng.IntN(len(src)-at+1)
			end := start + rng.IntN(len(src)-start+1)
			edits = append(edits, udiff.Edit{Start: start, End: end, New: strings.Repeat("x", rng.IntN(3))})
			at = end
			if start == end { // two insertions at one place are not in order
				at++
			}
		}
		got, err := applyEdits(src, edits)
		want, werr := udiff.Apply(src, edits)
		if err != nil || werr != nil || got != want {
			t.Fatalf("applyEdits(%q, %v) = %q, %v; udiff.Apply = %q, %v", src, edits, got, err, want, werr)
		}
	}
	for _, bad := range [][]udiff.Edit{{{Start: 2, End: 3}, {Start: 1, End: 2}}, {{Start: 0, End: 99}}, {{Start: 2, End: 1}}} {
		if _, err := applyEdits("abcdef", bad); err == nil {
			t.Errorf("applyEdits accepted %v", bad)
		}
	}
}
