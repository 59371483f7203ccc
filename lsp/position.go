package lsp

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// LSP positions count lines split at \n, \r\n or \r, and characters in
// UTF-16 code units. These helpers map them to byte offsets of Go strings.

// lineStarts returns the byte offset where each line begins.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineEnd is the offset where line's content ends (before its line break).
func lineEnd(text string, starts []int, line int) int {
	end := len(text)
	if line+1 < len(starts) {
		end = starts[line+1]
	}
	for end > starts[line] && (text[end-1] == '\n' || text[end-1] == '\r') {
		end--
	}
	return end
}

// offsetOf maps a position to a byte offset. A character past the end of
// its line means the line's end (as LSP says); a line past the end means
// the end of the text. A position inside a surrogate pair falls back to
// the start of its character.
func offsetOf(text string, starts []int, p protocol.Position) int {
	line := int(p.Line)
	if line >= len(starts) {
		return len(text)
	}
	off, end := starts[line], lineEnd(text, starts, line)
	units := int(p.Character)
	for off < end && units > 0 {
		r, size := utf8.DecodeRuneInString(text[off:end])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // invalid UTF-8 byte: one replacement character
		}
		if n > units {
			break
		}
		units -= n
		off += size
	}
	return off
}

// positionOf maps a byte offset (on a character boundary) to a position.
func positionOf(text string, starts []int, offset int) protocol.Position {
	line := 0
	lo, hi := 0, len(starts)-1
	for lo <= hi { // the last line start <= offset
		mid := (lo + hi) / 2
		if starts[mid] <= offset {
			line, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(utf16Len(text[starts[line]:offset]))}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// positionCursor maps byte offsets of a text, mostly increasing, to
// positions as positionOf does, counting line breaks on from the offset
// it mapped last rather than indexing every line start first: a few
// offsets in a large text cost one pass over the part before them.
type positionCursor struct {
	text      string
	off       int // the offset mapped last
	line      int // its line
	lineStart int // where that line starts
}

// position maps offset (on a character boundary) to a position.
func (c *positionCursor) position(offset int) protocol.Position {
	if offset < c.off {
		c.off, c.line, c.lineStart = 0, 0, 0
	}
	seg := c.text[c.off:offset]
	if lf := strings.LastIndexByte(seg, '\n'); lf >= 0 {
		c.line += strings.Count(seg, "\n")
		c.lineStart = c.off + lf + 1
	}
	// Most texts have no \r: a forward search (vectorised) says so before
	// the backward one, a byte at a time, walks the whole segment.
	if cr := lastCR(seg); cr >= 0 {
		// A \r before a \n is part of its break, counted there; a lone \r
		// is a break of its own. A \r ending seg and followed by \n ends a
		// line only at that \n: not counted yet.
		c.line += strings.Count(seg, "\r") - strings.Count(seg, "\r\n")
		if cr == len(seg)-1 && offset < len(c.text) && c.text[offset] == '\n' {
			c.line--
			cr = strings.LastIndexByte(seg[:cr], '\r')
		}
		if end := c.off + cr + 1; cr >= 0 && (end == len(c.text) || c.text[end] != '\n') {
			c.lineStart = max(c.lineStart, end)
		}
	}
	c.off = offset
	return protocol.Position{Line: uint32(c.line), Character: uint32(utf16Len(c.text[c.lineStart:offset]))}
}

// lastCR is strings.LastIndexByte(s, '\r'), quick when s has none.
func lastCR(s string) int {
	if strings.IndexByte(s, '\r') < 0 {
		return -1
	}
	return strings.LastIndexByte(s, '\r')
}

// offsetAt is offsetOf(text, lineStarts(text), p) without indexing every
// line start: it finds p's line by going from line break to line break
// (applyChanges maps a didChange's range this way, once per change of a
// buffer that may be large).
func offsetAt(text string, p protocol.Position) int {
	start, ok := lineStartAt(text, int(p.Line))
	if !ok {
		return len(text)
	}
	end := start + lineBreakAt(text[start:])
	off, units := start, int(p.Character)
	for off < end && units > 0 {
		r, size := utf8.DecodeRuneInString(text[off:end])
		n := utf16.RuneLen(r)
		if n < 0 {
			n = 1 // invalid UTF-8 byte: one replacement character
		}
		if n > units {
			break
		}
		units -= n
		off += size
	}
	return off
}

// lineStartAt returns where 0-based line n of text starts; ok is false
// when text has fewer lines. A text without \r is walked from \n to \n.
func lineStartAt(text string, n int) (int, bool) {
	off := 0
	if strings.IndexByte(text, '\r') < 0 {
		for ; n > 0; n-- {
			i := strings.IndexByte(text[off:], '\n')
			if i < 0 {
				return 0, false
			}
			off += i + 1
		}
		return off, true
	}
	for ; n > 0; n-- {
		i := lineBreakAt(text[off:])
		if off+i == len(text) {
			return 0, false
		}
		off += i + 1
		if text[off-1] == '\r' && off < len(text) && text[off] == '\n' {
			off++
		}
	}
	return off, true
}

// lineBreakAt is the offset of the first line break (\n or \r) of s, or
// len(s).
func lineBreakAt(s string) int {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		i = len(s)
	}
	if j := strings.IndexByte(s[:i], '\r'); j >= 0 {
		return j
	}
	return i
}
