package agent

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestElideMiddle: head and tail kept, whole lines and whole characters,
// and the note counts exactly the bytes left out.
func TestElideMiddle(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		b.WriteString(strings.Repeat("é", i%7) + "line of text\n")
	}
	text := b.String()
	got := elideMiddle(text, 1024)
	if len(got) > 1024+100 || !utf8.ValidString(got) {
		t.Fatalf("%d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
	head, rest, ok := strings.Cut(got, "[... ")
	if !ok || !strings.HasPrefix(text, head) || !strings.HasSuffix(head, "\n") {
		t.Fatalf("head not a whole-line prefix: %q", got[:80])
	}
	var n int
	note, tail, _ := strings.Cut(rest, " bytes elided to fit the model's context window ...]\n")
	if _, err := fmt.Sscan(note, &n); err != nil || len(head)+n+len(tail) != len(text) || !strings.HasSuffix(text, tail) {
		t.Errorf("head %d + elided %q + tail %d != %d", len(head), note, len(tail), len(text))
	}
}
