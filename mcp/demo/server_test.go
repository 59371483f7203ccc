package demo

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

func TestCountWords(t *testing.T) {
	for _, tc := range []struct {
		text string
		want WordCountOutput
	}{
		{"hello", WordCountOutput{5, 1, 1}},
		{"hello world\n", WordCountOutput{12, 1, 2}},
		{"a\n\nb", WordCountOutput{4, 3, 2}},
		{"  spaced   out  ", WordCountOutput{16, 1, 2}},
		{"你好 世界", WordCountOutput{5, 1, 2}},
		{"\n", WordCountOutput{1, 1, 0}},
	} {
		if got := CountWords(tc.text); got != tc.want {
			t.Errorf("CountWords(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

// Serve over pipes, with the SDK's client on the other end: discovered at
// 2026-07-28, both tools listed, calls answered, empty text an isError.
func TestServeOverPipes(t *testing.T) {
	clientToServerR, clientToServerW := io.Pipe()
	serverToClientR, serverToClientW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, clientToServerR, serverToClientW) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.IOTransport{Reader: serverToClientR, Writer: clientToServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Errorf("protocol = %s", v)
	}
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "current_time,word_count" {
		t.Errorf("tools = %v", names)
	}
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		isError bool
		want    string
	}{
		{"word_count", map[string]any{"text": "a b\nc"}, false, "characters: 5, lines: 2, words: 3"},
		{"word_count", map[string]any{"text": ""}, true, "text must not be empty"},
		{"current_time", map[string]any{}, false, time.Now().Format("2006")},
	} {
		r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatalf("%s: %v", tc.tool, err)
		}
		text := r.Content[0].(*mcp.TextContent).Text
		if r.IsError != tc.isError || !strings.Contains(text, tc.want) {
			t.Errorf("%s %v = isError %v %q", tc.tool, tc.args, r.IsError, text)
		}
	}
	_ = cs.Close()
	_ = clientToServerW.Close()
	cancel()
	if err := await.Event(t, done, "Serve to return"); err != nil {
		t.Errorf("Serve = %v", err)
	}
}
