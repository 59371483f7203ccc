package lsp

import (
	"bytes"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
)

// A text update's frame, built in the writer's reused buffer, is byte for
// byte the frame the general path (stream.notify) writes, whatever the
// text holds: HTML characters, line separators, control characters,
// invalid UTF-8, and text long enough to outgrow the kept buffer.
func TestTextUpdateFrameMatchesTheGeneralPath(t *testing.T) {
	texts := []string{"", "a", "<b>&amp;</b>", "line\u2028sep\u2029", "tab\tnl\n\x00\x1f\"\\", "bad \xff\xfe utf-8 é",
		strings.Repeat("x", keptFrameBuffer+1), "after the long one"}
	var f updateFrame
	for i, text := range texts {
		for _, k := range []string{"text", "reasoning"} {
			var general bytes.Buffer
			st := newStream(strings.NewReader(""), &general, zap.NewNop())
			seq := int64(i + 1)
			if err := st.notify("agent/update", &textUpdate{updateHeader: updateHeader{SessionID: "s<1>", Seq: seq, Kind: k}, textBody: textBody{Text: text}}); err != nil {
				t.Fatal(err)
			}
			got, err := f.build(k, text, func(h *updateHeader) { h.SessionID, h.Seq = "s<1>", seq })
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, general.Bytes()) {
				t.Errorf("text %d, %s: frame\n%.200q\nwant\n%.200q", i, k, got, general.Bytes())
			}
		}
	}
}

// The delta path allocates nothing of its own once its buffer has grown:
// a streamed answer's deltas cost the daemon no garbage between the
// provider's decoded string and the editor's pipe.
func TestTextUpdateSendAllocatesNothing(t *testing.T) {
	st := newStream(strings.NewReader(""), discard{}, zap.NewNop())
	srv := &server{frames: st, log: zap.NewNop()}
	sess := &session{id: "s1"}
	var f updateFrame
	allocs := testing.AllocsPerRun(1000, func() { sess.sendText(srv, "text", "a delta", &f) })
	if allocs != 0 {
		t.Errorf("sending a text update allocates %v times, want 0", allocs)
	}
}

// discard is io.Discard without its ReadFrom fast path getting in the way
// of what is measured: a plain writer.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A delta that leaves alone, the common case when the editor keeps up,
// costs the listener nothing either: its queue entry is a reused one and
// the writer is the listener's own goroutine, not a new one per burst.
func TestDeltaThroughTheListenerAllocatesNothing(t *testing.T) {
	st := newStream(strings.NewReader(""), discard{}, zap.NewNop())
	l := newUpdateListener(&server{frames: st, log: zap.NewNop()}, &session{id: "s1"}, nil)
	defer l.close()
	delta := agent.Event{Kind: agent.EventText, Text: "a delta"}
	allocs := testing.AllocsPerRun(1000, func() {
		l.OnEvent(delta)
		l.mu.Lock()
		for l.written < l.queued {
			l.drained.Wait()
		}
		l.mu.Unlock()
	})
	if allocs != 0 {
		t.Errorf("a delta through the listener allocates %v times, want 0", allocs)
	}
}
