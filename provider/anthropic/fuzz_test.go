package anthropic

import (
	"bytes"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// FuzzDecoder feeds arbitrary frames to the decoder. The input is one frame a
// line, "event-name<TAB>data" or just "data". Whatever the frames, the
// decoder must not panic, must not emit a failure (errors are returned), must
// not send arguments for a tool call it has not opened, must emit at most one
// Done and nothing after it, and must not end a stream without either a Done
// or an error.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte(`{"type":"ping"}`))
	f.Add([]byte("message_delta\t{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}\n{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}"))
	f.Fuzz(func(t *testing.T, input []byte) {
		dec := NewDialect().NewDecoder()
		opened := map[string]bool{}
		dones := 0
		emit := func(e provider.Event) {
			if dones > 0 {
				t.Fatalf("event %+v after done", e)
			}
			switch e.Type {
			case provider.EventText, provider.EventReasoning, provider.EventReasoningSignature:
				if e.Text == "" {
					t.Fatalf("empty %s event", e.Type)
				}
			case provider.EventToolUseStart:
				opened[e.ToolCallID] = true
			case provider.EventToolUseArgs:
				if !opened[e.ToolCallID] {
					t.Fatalf("arguments for tool call %q, never started", e.ToolCallID)
				}
				if e.Text == "" {
					t.Fatal("empty tool_use_args event")
				}
			case provider.EventDone:
				dones++
			default:
				t.Fatalf("decoder emitted %s", e.Type)
			}
		}
		for line := range bytes.SplitSeq(input, []byte("\n")) {
			event, data, found := bytes.Cut(line, []byte("\t"))
			if !found {
				event, data = nil, line
			}
			if err := dec.Frame(string(event), data, emit); err != nil {
				return // the caller turns it into the stream's failure
			}
		}
		err := dec.End(emit)
		if dones == 0 && err == nil {
			t.Fatal("stream ended with neither a done nor an error")
		}
		if dones > 0 && err != nil {
			t.Fatalf("End after done: %v", err)
		}
	})
}
