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
	return editHunksOf(before, LineDiff(before, after))
}

// editHunksOf is EditHunks of the edits LineDiff made of before.
func editHunksOf(before string, lineEdits []udiff.Edit) []permission.Hunk {
	if len(lineEdits) == 0 {
		return nil
	}
	edits := lineRuns(lineEdits)
	hunks := make([]permission.Hunk, 0, len(edits))
	line, at := 0, 0 // 0-based line of offset at: counted on from one hunk to the next
	for i, e := range edits {
		line += strings.Count(before[at:e.Start], "\n")
		at = e.Start
		hunks = append(hunks, permission.Hunk{
			ID: i + 1, StartLine: line + 1, EndLine: line + countSpanLines(before[e.Start:e.End]),
			OldText: before[e.Start:e.End], NewText: e.New,
			Diff: hunkDiff(before, e, line),
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
	var b strings.Builder
	b.Grow(len(before))
	done := 0 // bytes of before already copied or replaced
	cur := lineCursor{text: before}
	for _, h := range hunks {
		off, ok := cur.seek(h.StartLine)
		if !ok {
			return "", fmt.Errorf("hunk %d starts at line %d, outside the text's %d lines", h.ID, h.StartLine, countLines(before))
		}
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

// lineCursor finds where lines of a text start, moving on from the last
// line it found (hunks come in order) rather than indexing every line.
type lineCursor struct {
	text string
	line int // 1-based line starting at off; 0 before the first seek
	off  int
}

// seek returns the byte offset where 1-based line n starts; a line just
// past the last one starts at the end of the text (an insertion there).
// ok is false for a line outside 1 .. lines+1.
func (c *lineCursor) seek(n int) (int, bool) {
	if n < 1 {
		return 0, false
	}
	if c.line == 0 || n < c.line {
		c.line, c.off = 1, 0
	}
	for c.line < n {
		i := strings.IndexByte(c.text[c.off:], '\n')
		if i < 0 {
			if c.off == len(c.text) {
				return 0, false
			}
			// The last line has no line break: the next one starts at the end.
			c.off = len(c.text)
		} else {
			c.off += i + 1
		}
		c.line++
	}
	return c.off, true
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

// hunkDiff is one edit as a unified diff hunk: its @@ header and lines,
// without the file header.
// line is the 0-based line where e starts.
func hunkDiff(before string, e udiff.Edit, line int) string {
	out, err := unifiedWindow("a", "b", before, []udiff.Edit{e}, hunkContext, line)
	if err != nil {
		return "(diff unavailable: " + err.Error() + ")"
	}
	if i := strings.Index(out, "@@"); i >= 0 {
		return out[i:]
	}
	return out
}
