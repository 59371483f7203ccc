package tools

import (
	"fmt"
	"slices"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/agent-lsp/agent-lsp/permission"
)

// hunkContext is how many unchanged lines a hunk's Diff shows around it.
const hunkContext = 3

// EditHunks splits the change before → after into hunks: one per run of
// consecutive changed lines (a line diff, the one UnifiedDiff shows), in
// file order, with ids 1, 2, …. Runs are not joined when their context
// lines overlap, so a reviewer can take two nearby changes apart.
func EditHunks(before, after string) []permission.Hunk {
	if before == after {
		return nil
	}
	edits := lineRuns(udiff.Lines(before, after))
	hunks := make([]permission.Hunk, 0, len(edits))
	for i, e := range edits {
		start, end := editLines(before, e.Start, e.End)
		hunks = append(hunks, permission.Hunk{
			ID: i + 1, StartLine: start, EndLine: end,
			OldText: before[e.Start:e.End], NewText: e.New,
			Diff: hunkDiff(before, e),
		})
	}
	return hunks
}

// ApplyHunks applies the accepted hunks (by id; nil: all of them) of a
// change computed by EditHunks to before, the text they were computed
// against, and leaves the rest of before as it is. A hunk that does not
// match before (another text, or hunks out of order) is an error.
func ApplyHunks(before string, hunks []permission.Hunk, accepted []int) (string, error) {
	take := func(id int) bool { return accepted == nil || slices.Contains(accepted, id) }
	starts := lineOffsets(before)
	var b strings.Builder
	done := 0 // bytes of before already copied or replaced
	for _, h := range hunks {
		if h.StartLine < 1 || h.StartLine > len(starts) {
			return "", fmt.Errorf("hunk %d starts at line %d, outside the text's %d lines", h.ID, h.StartLine, len(starts)-1)
		}
		off := starts[h.StartLine-1]
		if off < done || !strings.HasPrefix(before[off:], h.OldText) {
			return "", fmt.Errorf("hunk %d does not match the text at line %d", h.ID, h.StartLine)
		}
		if !take(h.ID) {
			continue
		}
		b.WriteString(before[done:off])
		b.WriteString(h.NewText)
		done = off + len(h.OldText)
	}
	b.WriteString(before[done:])
	return b.String(), nil
}

// lineRuns joins edits that touch (one ends where the next starts) into
// one: a run of consecutive changed lines is one hunk.
func lineRuns(edits []udiff.Edit) []udiff.Edit {
	var out []udiff.Edit
	for _, e := range edits {
		if n := len(out); n > 0 && out[n-1].End == e.Start {
			out[n-1].End = e.End
			out[n-1].New += e.New
			continue
		}
		out = append(out, e)
	}
	return out
}

// editLines returns the 1-based, inclusive lines of text[start:end], which
// start and end on line boundaries; an empty span is (line, line-1).
func editLines(text string, start, end int) (int, int) {
	first := 1 + strings.Count(text[:start], "\n")
	return first, first + countSpanLines(text[start:end]) - 1
}

// countSpanLines counts the lines of a piece of text cut on line
// boundaries: its line breaks, plus a last line without one.
func countSpanLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineOffsets returns the byte offset where each line starts, plus one
// more entry: the offset where a line after the last one would start
// (len(text), or past a last line without a line break).
func lineOffsets(text string) []int {
	offs := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			offs = append(offs, i+1)
		}
	}
	if offs[len(offs)-1] != len(text) {
		offs = append(offs, len(text))
	}
	return offs
}

// hunkDiff is one edit as a unified diff hunk: its @@ header and lines,
// without the file header.
func hunkDiff(before string, e udiff.Edit) string {
	out, err := udiff.ToUnified("a", "b", before, []udiff.Edit{e}, hunkContext)
	if err != nil {
		return "(diff unavailable: " + err.Error() + ")"
	}
	if i := strings.Index(out, "@@"); i >= 0 {
		return out[i:]
	}
	return out
}
