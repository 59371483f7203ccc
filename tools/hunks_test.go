package tools

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func TestEditHunks(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\n"
	tests := []struct {
		name  string
		after string
		spans [][2]int // StartLine, EndLine of each hunk
		olds  []string
		news  []string
	}{
		{"one line changed", "a\nB\nc\nd\ne\nf\ng\nh\n", [][2]int{{2, 2}}, []string{"b\n"}, []string{"B\n"}},
		{"consecutive lines are one hunk", "a\nB\nC\nd\ne\nf\ng\nh\n", [][2]int{{2, 3}}, []string{"b\nc\n"}, []string{"B\nC\n"}},
		{"nearby changes stay apart", "A\nb\nC\nd\ne\nf\ng\nH\n", [][2]int{{1, 1}, {3, 3}, {8, 8}},
			[]string{"a\n", "c\n", "h\n"}, []string{"A\n", "C\n", "H\n"}},
		{"insertion", "a\nb\nnew\nc\nd\ne\nf\ng\nh\n", [][2]int{{3, 2}}, []string{""}, []string{"new\n"}},
		{"append at the end", before + "i\n", [][2]int{{9, 8}}, []string{""}, []string{"i\n"}},
		{"deletion", "a\nb\nd\ne\nf\ng\nh\n", [][2]int{{3, 3}}, []string{"c\n"}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := EditHunks(before, tt.after)
			if len(hs) != len(tt.spans) {
				t.Fatalf("hunks = %+v, want %d", hs, len(tt.spans))
			}
			for i, h := range hs {
				if h.ID != i+1 || h.StartLine != tt.spans[i][0] || h.EndLine != tt.spans[i][1] || h.OldText != tt.olds[i] || h.NewText != tt.news[i] {
					t.Errorf("hunk %d = %+v, want lines %v %q → %q", i+1, h, tt.spans[i], tt.olds[i], tt.news[i])
				}
				if !strings.HasPrefix(h.Diff, "@@ ") {
					t.Errorf("hunk %d diff = %q", i+1, h.Diff)
				}
			}
			if got, err := ApplyHunks(before, hs, nil); err != nil || got != tt.after {
				t.Errorf("ApplyHunks(all) = %q, %v; want %q", got, err, tt.after)
			}
			if got, err := ApplyHunks(before, hs, []int{}); err != nil || got != before {
				t.Errorf("ApplyHunks(none) = %q, %v; want the text unchanged", got, err)
			}
		})
	}
	if hs := EditHunks(before, before); hs != nil {
		t.Errorf("hunks of no change = %+v", hs)
	}
}

func TestApplyHunksSubset(t *testing.T) {
	before := "one\ntwo\nthree\nfour\nfive\n"
	after := "ONE\ntwo\nTHREE\nfour\nFIVE\n"
	hs := EditHunks(before, after)
	if len(hs) != 3 {
		t.Fatalf("hunks = %+v", hs)
	}
	tests := []struct {
		accepted []int
		want     string
	}{
		{[]int{1, 3}, "ONE\ntwo\nthree\nfour\nFIVE\n"},
		{[]int{2}, "one\ntwo\nTHREE\nfour\nfive\n"},
		{[]int{3, 1, 3}, "ONE\ntwo\nthree\nfour\nFIVE\n"}, // order and repeats do not matter
		{[]int{7}, before}, // unknown ids take nothing
	}
	for _, tt := range tests {
		if got, err := ApplyHunks(before, hs, tt.accepted); err != nil || got != tt.want {
			t.Errorf("ApplyHunks(%v) = %q, %v; want %q", tt.accepted, got, err, tt.want)
		}
	}
	// Ids are stable: the same texts give the same hunks.
	if again := EditHunks(before, after); again[1].ID != 2 || again[1].StartLine != 3 {
		t.Errorf("hunks changed between calls: %+v", again)
	}
	// Hunks of another text are refused, not applied somewhere else.
	if _, err := ApplyHunks("zero\n"+before, hs, nil); err == nil {
		t.Error("hunks applied to a text they were not computed against")
	}
}

func TestApplyHunksNoFinalNewline(t *testing.T) {
	before, after := "a\nb", "a\nB\nc"
	hs := EditHunks(before, after)
	if got, err := ApplyHunks(before, hs, nil); err != nil || got != after {
		t.Fatalf("ApplyHunks = %q, %v; hunks %+v", got, err, hs)
	}
}

// Hunks that do not fit the text are refused, as they were when every line
// start was indexed: a line outside the text, a hunk out of order, a hunk
// whose old text is not at its line. A hunk may start just past the last
// line (an insertion at the end), with or without a final newline.
func TestApplyHunksRefusesWhatDoesNotFit(t *testing.T) {
	h := func(id, line int, old, new string) permission.Hunk {
		return permission.Hunk{ID: id, StartLine: line, OldText: old, NewText: new}
	}
	tests := []struct {
		name, before string
		hunks        []permission.Hunk
		want         string // the text, or the error
	}{
		{"line 0", "a\nb\n", []permission.Hunk{h(1, 0, "a\n", "")}, "hunk 1 starts at line 0, outside the text's 2 lines"},
		{"past the end", "a\nb\n", []permission.Hunk{h(1, 4, "", "c\n")}, "hunk 1 starts at line 4, outside the text's 2 lines"},
		{"past the end, no final newline", "a\nb", []permission.Hunk{h(1, 4, "", "c")}, "hunk 1 starts at line 4, outside the text's 2 lines"},
		{"insertion at the end", "a\nb\n", []permission.Hunk{h(1, 3, "", "c\n")}, "a\nb\nc\n"},
		{"insertion after a last line without newline", "a\nb", []permission.Hunk{h(1, 3, "", "c")}, "a\nbc"},
		{"out of order", "a\nb\nc\n", []permission.Hunk{h(1, 3, "c\n", "C\n"), h(2, 1, "a\n", "A\n")}, "hunk 2 does not match the text at line 1"},
		{"old text elsewhere", "a\nb\nc\n", []permission.Hunk{h(1, 2, "c\n", "C\n")}, "hunk 1 does not match the text at line 2"},
		{"in order", "a\nb\nc\n", []permission.Hunk{h(1, 1, "a\n", "A\n"), h(2, 3, "c\n", "C\n")}, "A\nb\nC\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyHunks(tt.before, tt.hunks, nil)
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("ApplyHunks = %q, want %q", got, tt.want)
			}
		})
	}
}
