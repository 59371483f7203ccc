package lsp

import (
	"strings"
	"testing"
	"testing/synctest"

	"github.com/agent-lsp/agent-lsp/agent"
)

// Behind an editor that reads slower than the model streams, a long answer
// leaves in updates of at most maxCoalesced bytes (plus the delta that
// crossed it), never as one update of the whole answer, and loses nothing.
func TestCoalescedDeltasAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, ed := newBlockingListener(t)
		l.OnEvent(agent.Event{Kind: agent.EventText, Text: "a"})
		settled(t, l, "the first delta is being written", func() bool { return l.writing && len(l.queue) == 0 })
		delta := strings.Repeat("x", 1000)
		const deltas = 3 * maxCoalesced / 1000
		for range deltas {
			l.OnEvent(agent.Event{Kind: agent.EventText, Text: delta})
		}
		settled(t, l, "the deltas are queued", func() bool { return l.queued > 1 })
		total := 0
		for want := 1 + deltas*len(delta); total < want; {
			got := ed.next()
			if len(got.Text) > maxCoalesced+len(delta) {
				t.Fatalf("update %d holds %d bytes, over the bound %d", got.Seq, len(got.Text), maxCoalesced+len(delta))
			}
			total += len(got.Text)
		}
		closed := make(chan struct{})
		go func() { defer close(closed); l.close() }()
		<-closed
	})
}
