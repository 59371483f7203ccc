package tools

import (
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
	if before == after {
		return ""
	}
	if context < 0 {
		context = 0
	}
	edits := udiff.Lines(before, after)
	out, err := udiff.ToUnified("a/"+path, "b/"+path, before, edits, context)
	if err != nil {
		// Edits computed from before itself are always consistent; this is
		// a bug in the library, shown rather than hidden.
		return "(diff unavailable: " + err.Error() + ")"
	}
	return out
}
