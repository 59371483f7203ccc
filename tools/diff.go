package tools

import (
	"fmt"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// UnifiedDiff returns a unified diff of before → after with context lines
// of context around each hunk, labelled a/path and b/path, or "" when the
// texts are equal. It is what an approval shows, so it is line-based (a
// reader compares lines) and marks a missing final newline like diff -u.
//
// go-udiff is a packaged copy of golang.org/x/tools/internal/diff (the diff
// gopls uses), with no dependencies; its LCS bounds its effort on large,
// very different inputs, whereas go-difflib (archived) is quadratic, and
// sergi/go-diff is character-based with line mode bolted on.
func UnifiedDiff(path, before, after string, context int) string {
	return unifiedDiffOf(path, before, LineDiff(before, after), context)
}

// unifiedDiffOf is UnifiedDiff of the edits LineDiff made of before.
func unifiedDiffOf(path, before string, edits []udiff.Edit, context int) string {
	if len(edits) == 0 {
		return ""
	}
	if context < 0 {
		context = 0
	}
	out, err := unifiedWindow("a/"+path, "b/"+path, before, edits, context, strings.Count(before[:edits[0].Start], "\n"))
	if err != nil {
		// Edits computed from before itself are always consistent; this is
		// a bug in the library, shown rather than hidden.
		return "(diff unavailable: " + err.Error() + ")"
	}
	return out
}

// LineDiff is go-udiff's line diff of before → after (udiff.Lines: edits
// on line boundaries, offsets in before), computed only on the lines
// between the whole lines both texts end with and those both start with.
// udiff.Lines splits both texts whole into lines first, so a one-character
// edit of a 20 MB file would cost two slices of every line.
//
// The edits are as few as udiff's (the common lines at the ends are in a
// longest common subsequence anyway) and the same wherever the change has
// one best place; in a run of repeated lines a hunk may land on another
// of the equal lines than udiff on the whole texts puts it (the suffix is
// cut first, as udiff's LCS, which meets from both ends, mostly does).
// diff_test.go compares both.
func LineDiff(before, after string) []udiff.Edit {
	return LineDiffKnown(before, after, Unchanged{})
}

// LineDiffKnown is LineDiff when the caller knows how much the texts share
// at their ends (an edit_file replacement knows where it is): those bytes
// are not compared again.
func LineDiffKnown(before, after string, known Unchanged) []udiff.Edit {
	known = known.within(before, after)
	if known.same(before, after) {
		return nil
	}
	pre, suf := commonLines(before, after, known)
	edits := udiff.Lines(before[pre:len(before)-suf], after[pre:len(after)-suf])
	for i := range edits {
		edits[i].Start += pre
		edits[i].End += pre
	}
	return edits
}

// commonLines returns the byte lengths of the longest run of whole lines
// a and b end with, and of the longest run of whole lines they start with
// before that (a line is cut after its \n; the last one may have none).
func commonLines(a, b string, known Unchanged) (pre, suf int) {
	suf = commonSuffixFrom(a, b, known.Suffix)
	if !(atLineStart(a, len(a)-suf) && atLineStart(b, len(b)-suf)) {
		// Inside the common part both texts have the same bytes: its
		// first line start is one in both.
		s := a[len(a)-suf:]
		suf = 0
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			suf = len(s) - (i + 1)
		}
	}
	a, b = a[:len(a)-suf], b[:len(b)-suf]
	pre = commonPrefixFrom(a, b, min(known.Prefix, len(a), len(b)))
	if pre < len(a) || pre < len(b) { // not all of the shorter one: back to a line start
		pre = strings.LastIndexByte(a[:pre], '\n') + 1
	}
	return pre, suf
}

func atLineStart(s string, i int) bool { return i == 0 || s[i-1] == '\n' }

// compareBlock is how many bytes commonPrefixLen and commonSuffixLen
// compare at once (string equality is a vectorized memequal).
const compareBlock = 512

// commonPrefixFrom is the length of a's and b's common prefix, whose
// first from bytes are known to be the same.
func commonPrefixFrom(a, b string, from int) int {
	n := min(len(a), len(b))
	i := from
	for i+compareBlock <= n && a[i:i+compareBlock] == b[i:i+compareBlock] {
		i += compareBlock
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffixFrom is the length of a's and b's common suffix, whose
// last from bytes are known to be the same.
func commonSuffixFrom(a, b string, from int) int {
	n := min(len(a), len(b))
	i := from // bytes matched from the end
	for i+compareBlock <= n && a[len(a)-i-compareBlock:len(a)-i] == b[len(b)-i-compareBlock:len(b)-i] {
		i += compareBlock
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// unifiedWindow is udiff.ToUnified(from, to, before, edits, context) made
// on the part of before the hunks show: from context lines before the
// first edit to context lines after the last, with the hunk headers'
// line numbers moved back to the whole text's. The lines outside cannot
// change the output: udiff shows no more than context lines around an
// edit. firstLine is the 0-based line where edits[0] starts (the caller
// usually knows it; counting it again would cost a pass over the text).
func unifiedWindow(from, to, before string, edits []udiff.Edit, context, firstLine int) (string, error) {
	if len(edits) == 0 {
		return udiff.ToUnified(from, to, before, edits, context)
	}
	start, skipped := edits[0].Start, 0
	for ; skipped < context && start > 0; skipped++ {
		start = strings.LastIndexByte(before[:start-1], '\n') + 1
	}
	end := edits[len(edits)-1].End
	for k := 0; k < context && end < len(before); k++ {
		if i := strings.IndexByte(before[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(before)
		}
	}
	shifted := make([]udiff.Edit, len(edits))
	for i, e := range edits {
		shifted[i] = udiff.Edit{Start: e.Start - start, End: e.End - start, New: e.New}
	}
	out, err := udiff.ToUnified(from, to, before[start:end], shifted, context)
	if err != nil || firstLine-skipped == 0 {
		return out, err
	}
	return shiftHunkHeaders(out, firstLine-skipped), nil
}

// shiftHunkHeaders adds lines (> 0) to the line numbers of every "@@ -a,b
// +c,d @@" header of a unified diff: the diff of a window into a text
// that starts lines into it. Lines before the window are the same in both
// texts, so both sides move by the same amount. The header is written as
// udiff writes it for the whole text; its one special case ("-0,0", an
// insertion at line 1) cannot occur past line 1.
func shiftHunkHeaders(diff string, lines int) string {
	var b strings.Builder
	b.Grow(len(diff) + 32)
	for rest := diff; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if h, ok := shiftHeader(line, lines); ok {
			line = h
		}
		b.WriteString(line)
	}
	return b.String()
}

// shiftHeader rewrites one "@@ -a[,b] +c[,d] @@\n" line (see
// shiftHunkHeaders); ok is false for any other line.
func shiftHeader(line string, lines int) (string, bool) {
	rest, ok := strings.CutPrefix(line, "@@ ")
	if !ok {
		return "", false
	}
	fields := strings.Fields(rest) // "-a,b" "+c,d" "@@"
	if len(fields) != 3 || fields[2] != "@@" {
		return "", false
	}
	parts := make([]string, 2)
	for i, sign := range []string{"-", "+"} {
		f, ok := strings.CutPrefix(fields[i], sign)
		if !ok {
			return "", false
		}
		first, count, hasCount := strings.Cut(f, ",")
		n, err := strconv.Atoi(first)
		if err != nil {
			return "", false
		}
		if f == "0,0" { // udiff's "-0,0": nothing at line 1
			n, hasCount = 1, false
		}
		parts[i] = fmt.Sprintf("%s%d", sign, n+lines)
		if hasCount {
			parts[i] += "," + count
		}
	}
	return "@@ " + parts[0] + " " + parts[1] + " @@\n", true
}
