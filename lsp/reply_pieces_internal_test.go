package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// An answer written in pieces is the JSON the whole reply marshals to,
// byte for byte, whatever falls on a chunk's edge: multi-byte and invalid
// UTF-8, escapes, U+2028; and the frame's length counts it.
func TestPromptReplyInPiecesIsTheWholeReply(t *testing.T) {
	var text strings.Builder
	for text.Len() < 3*textChunk {
		text.WriteString("é\"quote\" <b>&</b>\n\t\x01\u2028 \xff\xfe 日本語 ")
	}
	r := promptResult{promptResultHead: promptResultHead{SessionID: "s1", StopReason: "end_turn"}, Text: text.String(),
		promptResultTail: promptResultTail{Usage: provider.Usage{PromptTokens: 3}, Notice: "n", Command: "/c"}}
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for p := range r.pieces() {
		got = append(got, p...)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("pieces differ from the marshalled reply:\n got %.200s\nwant %.200s", got, want)
	}

	var out bytes.Buffer
	s := newStream(strings.NewReader(""), &out, zap.NewNop())
	id := jsonrpc2.NewNumberID(7)
	s.deferred.put(id, r)
	resp, err := jsonrpc2.NewResponse(id, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(t.Context(), resp); err != nil {
		t.Fatal(err)
	}
	body, err := (&frameReader{r: bufio.NewReader(&out)}).frame()
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.ID != 7 || !bytes.Equal(msg.Result, want) {
		t.Fatalf("the frame holds id %d, result %.200s (%v); want id 7 and the reply", msg.ID, msg.Result, err)
	}
}
