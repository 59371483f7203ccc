package lsp

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// applyTextEdits applies edits relative to text, from the last to the first.
func applyTextEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	starts := lineStarts(text)
	out := text
	for i := len(edits) - 1; i >= 0; i-- {
		a := offsetOf(text, starts, edits[i].Range.Start)
		b := offsetOf(text, starts, edits[i].Range.End)
		// The edit's own positions must map back exactly.
		if got := positionOf(text, starts, a); got != edits[i].Range.Start {
			t.Fatalf("start %+v does not round-trip (%+v)", edits[i].Range.Start, got)
		}
		out = out[:a] + edits[i].NewText + out[b:]
	}
	return out
}

func TestMinimalEdits(t *testing.T) {
	cases := []struct {
		name, before, after string
		maxEdits            int
		maxNewText          int // bound on the total replacement text
	}{
		{"one word", "alpha beta gamma\n", "alpha BETA gamma\n", 1, 4},
		{"emoji before the change", "🎉🎉 x = 1\n", "🎉🎉 x = 2\n", 1, 1},
		{"astral in the change", "a\nb 😀 c\n", "a\nb 😃 c\n", 1, 4},
		{"combining accents", "café\n", "cafe\u0301\n", 1, 3},
		{"crlf kept whole", "one\r\ntwo\r\n", "one\r\n2\r\ntwo\r\n", 1, 3},
		{"insert line", "a\nc\n", "a\nb\nc\n", 1, 2},
		{"delete line", "a\nb\nc\n", "a\nc\n", 1, 0},
		{"two hunks", strings.Repeat("x\n", 10) + "end\n", "y\n" + strings.Repeat("x\n", 8) + "z\nend\n", 2, 3},
		{"new file", "", "hello\n", 1, 6},
		{"no final newline", "a\nb", "a\nB", 1, 1},
		{"cjk", "你好世界\n", "你好，世界\n", 1, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			edits := minimalEdits(tc.before, tc.after)
			if got := applyTextEdits(t, tc.before, edits); got != tc.after {
				t.Fatalf("edits %+v give %q, want %q", edits, got, tc.after)
			}
			total := 0
			for _, e := range edits {
				total += len(e.NewText)
			}
			if len(edits) > tc.maxEdits || total > tc.maxNewText {
				t.Errorf("edits not minimal: %+v", edits)
			}
		})
	}
}

func TestPositionsAreUTF16(t *testing.T) {
	text := "a😀b\r\nzé\rq\n"
	starts := lineStarts(text)
	cases := []struct {
		pos    protocol.Position
		offset int
	}{
		{protocol.Position{Line: 0, Character: 0}, 0},
		{protocol.Position{Line: 0, Character: 1}, 1},
		{protocol.Position{Line: 0, Character: 3}, 5}, // after the emoji: 2 UTF-16 units, 4 bytes
		{protocol.Position{Line: 0, Character: 4}, 6},
		{protocol.Position{Line: 0, Character: 99}, 6}, // past the end of the line: its end
		{protocol.Position{Line: 1, Character: 2}, 11}, // "zé": é is 2 bytes, 1 unit
		{protocol.Position{Line: 2, Character: 1}, 13}, // a lone \r ends a line
		{protocol.Position{Line: 9, Character: 0}, len(text)},
	}
	for _, tc := range cases {
		if got := offsetOf(text, starts, tc.pos); got != tc.offset {
			t.Errorf("offsetOf(%+v) = %d, want %d", tc.pos, got, tc.offset)
		}
	}
	// Inside a surrogate pair falls back to the character's start.
	if got := offsetOf(text, starts, protocol.Position{Line: 0, Character: 2}); got != 1 {
		t.Errorf("inside the emoji: %d, want 1", got)
	}
}

func TestApplyChanges(t *testing.T) {
	text := "héllo\nwörld 🎉\n"
	r := func(l1, c1, l2, c2 uint32) *protocol.Range {
		return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
	}
	got := applyChanges(text, []contentChange{
		{Range: r(1, 6, 1, 8), Text: "🚀"},   // replace the emoji (2 units)
		{Range: r(0, 1, 0, 2), Text: "e"},   // é → e
		{Range: r(2, 0, 2, 0), Text: "!\n"}, // append a line
	})
	if want := "hello\nwörld 🚀\n!\n"; got != want {
		t.Errorf("incremental = %q, want %q", got, want)
	}
	// A change without a range is the whole text (not an insert at 0:0).
	if got := applyChanges(text, []contentChange{{Text: "new"}}); got != "new" {
		t.Errorf("full change = %q", got)
	}
}

// positionCursor gives positionOf's positions, offsets asked in order or
// not, on texts with every kind of line break and characters of 1 to 4
// bytes (1 or 2 UTF-16 units).
func TestPositionCursorSameAsPositionOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	pieces := []string{"a", "\n", "\r", "\r\n", "é", "你", "😀", " "}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		var bounds []int // character boundaries
		for range rng.IntN(20) {
			bounds = append(bounds, b.Len())
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		bounds = append(bounds, len(text))
		starts := lineStarts(text)
		c := positionCursor{text: text}
		offsets := slices.Clone(bounds)
		if i%2 == 1 { // also out of order, and the same offset twice
			rng.Shuffle(len(offsets), func(a, b int) { offsets[a], offsets[b] = offsets[b], offsets[a] })
			offsets = append(offsets, offsets[0])
		}
		for _, off := range offsets {
			if got, want := c.position(off), positionOf(text, starts, off); got != want {
				t.Fatalf("text %q offset %d (after %v): cursor %+v, positionOf %+v", text, off, offsets, got, want)
			}
		}
	}
}

// One character changed in the middle of a large text: one edit of one
// character, at the right line (edits found on the lines between the
// common ends, positions counted on, not indexed).
func TestMinimalEditsLargeText(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50000; i++ {
		fmt.Fprintf(&b, "line %d\r\n", i)
	}
	before := b.String()
	after := strings.Replace(before, "line 31337\r\n", "line 31338\r\n", 1)
	edits := minimalEdits(before, after)
	want := []protocol.TextEdit{{Range: protocol.Range{Start: protocol.Position{Line: 31337, Character: 9},
		End: protocol.Position{Line: 31337, Character: 10}}, NewText: "8"}}
	if !reflect.DeepEqual(edits, want) {
		t.Fatalf("edits = %+v, want %+v", edits, want)
	}
	if got := applyTextEdits(t, before, edits); got != after {
		t.Fatal("the edits do not make the text")
	}
}

// offsetAt gives offsetOf's offsets (with every line start indexed) for
// positions anywhere: inside and past lines, past the text, inside a
// surrogate pair, on texts with every kind of line break.
func TestOffsetAtSameAsOffsetOf(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 6))
	pieces := []string{"a", "\n", "\r", "\r\n", "é", "😀", " ", "\xff"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		starts := lineStarts(text)
		for range 10 {
			p := protocol.Position{Line: uint32(rng.IntN(len(starts) + 2)), Character: uint32(rng.IntN(8))}
			if got, want := offsetAt(text, p), offsetOf(text, starts, p); got != want {
				t.Fatalf("text %q position %+v: offsetAt %d, offsetOf %d", text, p, got, want)
			}
		}
	}
}
