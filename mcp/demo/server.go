// Package demo is the built-in demo MCP server (`agent-lsp mcp-demo`), on
// the official SDK: two tools,
// current_time and word_count. The SDK serves both the stateless 2026-07-28
// revision (server/discover) and the older initialize handshake.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server's self-reported name.
const Name = "agent-lsp-demo"

// Version is the server's self-reported version.
const Version = "0.1.0"

// WordCountInput is word_count's argument object.
type WordCountInput struct {
	Text string `json:"text" jsonschema:"the text to count"`
}

// WordCountOutput is word_count's structured result.
type WordCountOutput struct {
	Characters int `json:"characters" jsonschema:"number of Unicode characters"`
	Lines      int `json:"lines" jsonschema:"number of lines (a trailing newline does not start a new one)"`
	Words      int `json:"words" jsonschema:"number of whitespace-separated words"`
}

// NewServer returns the demo server, ready to Run on any transport. now is
// the clock current_time reads; nil means time.Now.
func NewServer(now func() time.Time) *mcp.Server {
	if now == nil {
		now = time.Now
	}
	s := mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, nil)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "current_time",
		Description: "Returns the server's current date and time. Use it when the user asks what time or what day it is.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: false},
	}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		t := now()
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: t.Format("2006-01-02 15:04:05 MST") + " (" + t.Format(time.RFC3339) + ")"},
		}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "word_count",
		Description: "Counts the characters, lines and whitespace-separated words of a text.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in WordCountInput) (*mcp.CallToolResult, WordCountOutput, error) {
		if in.Text == "" {
			// An error from a typed handler becomes an isError result the
			// model can read and correct, not a protocol error.
			return nil, WordCountOutput{}, errors.New("text must not be empty")
		}
		out := CountWords(in.Text)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
			Text: fmt.Sprintf("characters: %d, lines: %d, words: %d", out.Characters, out.Lines, out.Words),
		}}}, out, nil
	})
	return s
}

// CountWords counts like word_count: Unicode characters, lines (a final
// newline ends the last line rather than starting an empty one), and runs
// of non-whitespace.
func CountWords(text string) WordCountOutput {
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++
	}
	return WordCountOutput{
		Characters: utf8.RuneCountInString(text),
		Lines:      lines,
		Words:      len(strings.Fields(text)),
	}
}

// Serve runs the demo server over newline-delimited JSON on in/out (the
// process's stdin/stdout for `agent-lsp mcp-demo`) until the client closes
// in or ctx ends.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := NewServer(nil).Run(ctx, t)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil) {
		return nil // the client went away: a normal end
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
