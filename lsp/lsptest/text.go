package lsptest

import (
	"fmt"
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// This is an independent implementation of LSP positions (lines split at
// \n, \r\n or \r; characters in UTF-16 units), so the server's own is
// checked against it rather than against itself.

// Offset maps a position of text to a byte offset; out-of-range positions
// and positions inside a character are errors (a strict editor).
func Offset(text string, p protocol.Position) (int, error) {
	line, off := 0, 0
	for line < int(p.Line) {
		i := off
		for i < len(text) && text[i] != '\n' && text[i] != '\r' {
			i++
		}
		if i == len(text) {
			// Past the last line: the end of the document, as VS Code
			// clamps it (LSP clients must accept such positions).
			return len(text), nil
		}
		if text[i] == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i++
		}
		off, line = i+1, line+1
	}
	units := int(p.Character)
	for units > 0 {
		if off >= len(text) || text[off] == '\n' || text[off] == '\r' {
			return 0, fmt.Errorf("character %d is past the end of line %d", p.Character, p.Line)
		}
		r, size := utf8.DecodeRuneInString(text[off:])
		n := utf16.RuneLen(r)
		if n > units {
			return 0, fmt.Errorf("position %d:%d is inside a character", p.Line, p.Character)
		}
		units -= n
		off += size
	}
	return off, nil
}

// ApplyEdits applies LSP text edits (all relative to text) and returns the
// new text.
func ApplyEdits(text string, edits []protocol.TextEdit) (string, error) {
	type span struct {
		start, end int
		text       string
	}
	spans := make([]span, len(edits))
	for i, e := range edits {
		a, err := Offset(text, e.Range.Start)
		if err != nil {
			return "", err
		}
		b, err := Offset(text, e.Range.End)
		if err != nil {
			return "", err
		}
		if b < a {
			return "", fmt.Errorf("edit %d ends before it starts", i)
		}
		spans[i] = span{a, b, e.NewText}
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return "", fmt.Errorf("edits overlap")
		}
	}
	for i := len(spans) - 1; i >= 0; i-- {
		text = text[:spans[i].start] + spans[i].text + text[spans[i].end:]
	}
	return text, nil
}
