package openai

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// FuzzDecoder feeds arbitrary SSE text, frame by frame, through one
// decoder. Whatever the bytes, the decoder must not panic, must not emit
// arguments for a call it never opened, must emit at most one EventDone
// and nothing after it, and must not emit empty deltas.
// The seed corpus (testdata/fuzz/FuzzDecoder) holds the real streams and
// each failure shape.
func FuzzDecoder(f *testing.F) {
	f.Fuzz(func(t *testing.T, sse string) {
		dec := NewDialect().NewDecoder()
		opened := map[string]bool{}
		dones := 0
		emit := func(ev provider.Event) {
			if dones > 0 {
				t.Fatalf("event %v after EventDone", ev.Type)
			}
			switch ev.Type {
			case provider.EventText, provider.EventReasoning:
				if ev.Text == "" {
					t.Fatalf("empty %v event", ev.Type)
				}
			case provider.EventToolUseStart:
				if ev.ToolCallID == "" {
					t.Fatal("tool call started without an id")
				}
				opened[ev.ToolCallID] = true
			case provider.EventToolUseArgs:
				if !opened[ev.ToolCallID] {
					t.Fatalf("arguments for %q, which no EventToolUseStart opened", ev.ToolCallID)
				}
				if ev.Text == "" {
					t.Fatal("empty arguments event")
				}
			case provider.EventDone:
				dones++
			default:
				t.Fatalf("decoder emitted %v", ev.Type)
			}
		}
		for _, frame := range sseFrames(t, sse) {
			if err := dec.Frame("", frame, emit); err != nil {
				return
			}
			if dones > 0 {
				break // DecodeSSE stops at EventDone too
			}
		}
		if dones == 0 {
			_ = dec.End(emit) // error or held-back EventDone: both fine
		}
		if dones > 1 {
			t.Fatalf("%d EventDone", dones)
		}
		// After EventDone nothing may change: further frames and End are silent.
		if dones == 1 {
			_ = dec.Frame("", []byte(`{"choices":[{"index":0,"delta":{"content":"late"},"finish_reason":"stop"}],"usage":{}}`), emit)
			_ = dec.End(emit)
		}
	})
}
