package lsp

import (
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/tools"
)

// minimalEdits returns the text edits that turn before into after, as an
// editor wants them: a line diff (the diff gopls uses), each changed hunk
// then narrowed to the characters that really differ, positions in UTF-16
// code units of before. Edits never split a character or a \r\n.
//
// Line hunks first, because a character diff of a whole file yields
// scattered one-letter edits that make the editor's undo and highlighting
// noisy; narrowing second, because replacing a whole line to change one
// word moves the cursor and markers needlessly.
func minimalEdits(before, after string) []protocol.TextEdit {
	return minimalEditsKnown(before, after, tools.Unchanged{})
}

// minimalEditsKnown is minimalEdits when the ends the texts share are
// known (an edit_file replacement's): they are not compared again.
func minimalEditsKnown(before, after string, known tools.Unchanged) []protocol.TextEdit {
	// tools.LineDiffKnown: the line diff on the lines between the common
	// ends, and positions counted on from one edit to the next, so a small
	// edit of a large text costs no slice of its lines.
	hunks := tools.LineDiffKnown(before, after, known)
	if len(hunks) == 0 {
		return nil
	}
	edits := make([]protocol.TextEdit, 0, len(hunks))
	at := positionCursor{text: before}
	for _, h := range hunks {
		start, end, text := narrow(before, h.Start, h.End, h.New)
		if start == end && text == "" {
			continue
		}
		edits = append(edits, protocol.TextEdit{
			Range:   protocol.Range{Start: at.position(start), End: at.position(end)},
			NewText: text,
		})
	}
	return edits
}

// editorEdits is minimalEdits as they are sent. An empty buffer is one
// empty line to Neovim, and it drops that line only when an edit reaches
// past it: the insert into an empty text ends at 1:0 (clients clamp a
// position past the end to the end, as VS Code does) so a new file does
// not gain a trailing blank line.
func editorEdits(before, after string, known tools.Unchanged) []protocol.TextEdit {
	edits := minimalEditsKnown(before, after, known)
	if before == "" && len(edits) == 1 {
		edits[0].Range.End = protocol.Position{Line: 1, Character: 0}
	}
	return edits
}

// narrow trims the common prefix and suffix of before[start:end] and
// repl, keeping both cuts on character boundaries outside any \r\n.
func narrow(before string, start, end int, repl string) (int, int, string) {
	old := before[start:end]
	p := 0
	for p < len(old) && p < len(repl) && old[p] == repl[p] {
		p++
	}
	for p > 0 && (!cutOK(old, p) || !cutOK(repl, p)) {
		p--
	}
	old, repl = old[p:], repl[p:]
	q := 0
	for q < len(old) && q < len(repl) && old[len(old)-1-q] == repl[len(repl)-1-q] {
		q++
	}
	for q > 0 && (!cutOK(old, len(old)-q) || !cutOK(repl, len(repl)-q)) {
		q--
	}
	return start + p, end - q, repl[:len(repl)-q]
}

// cutOK reports whether s may be cut at i: on a character boundary and
// not between the \r and \n of a line break.
func cutOK(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	if !utf8.RuneStart(s[i]) {
		return false
	}
	return !(s[i-1] == '\r' && s[i] == '\n')
}
