package provider

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Held texts are written with the bytes json.Encoder writes for the whole
// value, whatever falls on a chunk's edge: multi-byte and invalid UTF-8,
// escapes, U+2028, HTML left as it is; and the output never holds a
// placeholder.
func TestLongTextsWriteTheWholeValue(t *testing.T) {
	var b strings.Builder
	for b.Len() < 5*textChunk {
		b.WriteString("é\"quote\" <b>&</b>\n\t\x01\u2028 \xff\xfe 日本語 \x00 ")
	}
	long := b.String()
	type msg struct {
		Role    string  `json:"role"`
		Content *string `json:"content"`
		Args    string  `json:"args"`
	}
	short := "short <text>"
	value := []msg{{"user", &long, short}, {"assistant", &short, long[3:]}}

	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		t.Fatal(err)
	}
	var l LongTexts
	held := make([]msg, len(value))
	for i, m := range value {
		content := l.Hold(*m.Content)
		held[i] = msg{m.Role, &content, l.Hold(m.Args)}
	}
	if len(l.texts) != 2 {
		t.Fatalf("%d texts held, want the 2 long ones", len(l.texts))
	}
	var got bytes.Buffer
	if err := l.Encode(&got, held); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("the written value differs (%d bytes, want %d)", got.Len(), want.Len())
	}
}
