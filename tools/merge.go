package tools

import (
	"errors"
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// ErrEditConflict is wrapped by the errors of edits that could not be
// merged with changes made since the agent read the file.
var ErrEditConflict = errors.New("edit conflict")

// MergeConflict is a place where both sides of a three-way merge changed
// the same lines of the base.
type MergeConflict struct {
	// OursStart, OursEnd: the 1-based, inclusive lines of the base that
	// "ours" (the text now) replaced; OursEnd is OursStart-1 when it only
	// inserted lines before OursStart.
	OursStart, OursEnd int
	// TheirsStart, TheirsEnd: the same for "theirs" (the edit).
	TheirsStart, TheirsEnd int
}

// Merge3 merges two changes of one text: base → ours (what someone else
// did since base was read) and base → theirs (the edit to make). Changes
// to different lines merge; changes that overlap, and insertions at the
// same place, conflict unless both sides made the same change. With
// conflicts the merged text is "".
//
// Changes are line diffs (go-udiff's, the diff of UnifiedDiff and the
// editor edits), merged here rather than by udiff.Merge: that one splits
// overlapping edits and joins insertions at one place silently, and says
// nothing of where a conflict is; a user's typing must never be rewritten
// by a merge that guessed. Changes that touch without overlapping (the
// user edits line 10, the agent line 11) merge: neither is lost.
func Merge3(base, ours, theirs string) (string, []MergeConflict) {
	switch {
	case ours == base || ours == theirs:
		return theirs, nil
	case theirs == base:
		return ours, nil
	}
	o := lineRuns(LineDiff(base, ours))
	t := lineRuns(LineDiff(base, theirs))
	var merged []udiff.Edit
	var conflicts []MergeConflict
	for i, j := 0, 0; i < len(o) || j < len(t); {
		switch {
		case j == len(t) || (i < len(o) && precedes(o[i], t[j])):
			merged = append(merged, o[i])
			i++
		case i == len(o) || precedes(t[j], o[i]):
			merged = append(merged, t[j])
			j++
		case o[i] == t[j]:
			merged = append(merged, o[i])
			i, j = i+1, j+1
		default:
			c := MergeConflict{}
			c.OursStart, c.OursEnd = editLines(base, o[i].Start, o[i].End)
			c.TheirsStart, c.TheirsEnd = editLines(base, t[j].Start, t[j].End)
			conflicts = append(conflicts, c)
			// Move past the edit that ends first; the other may meet more.
			switch {
			case o[i].End < t[j].End:
				i++
			case t[j].End < o[i].End:
				j++
			default:
				i, j = i+1, j+1
			}
		}
	}
	if len(conflicts) > 0 {
		return "", conflicts
	}
	out, err := applyEdits(base, merged)
	if err != nil {
		// The edits are ordered and disjoint by construction; report the
		// bug as a conflict rather than write a wrong text.
		return "", []MergeConflict{{OursStart: 1, OursEnd: countSpanLines(base), TheirsStart: 1, TheirsEnd: countSpanLines(base)}}
	}
	return out, nil
}

// precedes reports whether edit x lies wholly before y, so both can be
// made. Two insertions at one place do not: their order is a guess.
func precedes(x, y udiff.Edit) bool {
	if x.Start == x.End && y.Start == y.End && x.Start == y.Start {
		return false
	}
	return x.End <= y.Start
}

// ConflictError is the error of an edit to rel that conflicts with changes
// made since the file was read; who names the other side ("the user").
// The model reads it: it says which lines and what to do.
func ConflictError(rel, who string, conflicts []MergeConflict) error {
	parts := make([]string, 0, len(conflicts))
	for _, c := range conflicts {
		parts = append(parts, changePhrase(c.OursStart, c.OursEnd))
	}
	return fmt.Errorf("%w: %s %s of %s since you read it, where your edit changes the text too; nothing was changed. Read %s again and redo your edit",
		ErrEditConflict, who, strings.Join(parts, " and "), rel, rel)
}

// changePhrase says what a change did to lines start..end of the text
// read (end < start: it only added lines before start).
func changePhrase(start, end int) string {
	switch {
	case end < start:
		return fmt.Sprintf("added lines before line %d", start)
	case end == start:
		return fmt.Sprintf("edited line %d", start)
	}
	return fmt.Sprintf("edited lines %d–%d", start, end)
}

// applyEdits is udiff.Apply for edits in order and apart (as Merge3 makes
// them), building the result once in a builder of its size (udiff.Apply
// builds a []byte and copies it into a string).
func applyEdits(src string, edits []udiff.Edit) (string, error) {
	size, at := len(src), 0
	for _, e := range edits {
		if e.Start < at || e.End < e.Start || e.End > len(src) {
			return "", fmt.Errorf("edit %d–%d is out of order or out of the text's %d bytes", e.Start, e.End, len(src))
		}
		size += len(e.New) - (e.End - e.Start)
		at = e.End
	}
	var b strings.Builder
	b.Grow(size)
	at = 0
	for _, e := range edits {
		b.WriteString(src[at:e.Start])
		b.WriteString(e.New)
		at = e.End
	}
	b.WriteString(src[at:])
	return b.String(), nil
}
