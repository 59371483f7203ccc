package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/internal/await"
)

// blockingEditor is a client whose reading the test controls: io.Pipe
// writes block until read, so a write "in progress" stays in progress
// until the test reads the frame.
type blockingEditor struct {
	t *testing.T
	r *bufio.Reader
}

// next reads one agent/update notification.
func (e blockingEditor) next() sentText {
	e.t.Helper()
	tp := textproto.NewReader(e.r)
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		e.t.Fatalf("reading a frame header: %v", err)
	}
	n, err := strconv.Atoi(hdr.Get("Content-Length"))
	if err != nil {
		e.t.Fatalf("Content-Length %q: %v", hdr.Get("Content-Length"), err)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(e.r, body); err != nil {
		e.t.Fatalf("reading a frame body: %v", err)
	}
	var msg struct {
		Method string   `json:"method"`
		Params sentText `json:"params"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || msg.Method != "agent/update" {
		e.t.Fatalf("frame %s (%v)", body, err)
	}
	return msg.Params
}

func newBlockingListener(t *testing.T) (*updateListener, blockingEditor) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pr.Close() }) // a writer still blocked fails and ends
	log := zaptest.NewLogger(t)
	st := newStream(strings.NewReader(""), pw, log)
	s := &server{ctx: context.Background(), conn: jsonrpc2.NewConn(st), log: log}
	return newUpdateListener(s, &session{id: "s1"}, nil), blockingEditor{t: t, r: bufio.NewReader(pr)}
}

// settled waits until every goroutine of the test's synctest bubble is
// blocked (the writer on the pipe, OnEvent on its write) and checks cond
// under the listener's lock.
func settled(t *testing.T, l *updateListener, what string, cond func() bool) {
	t.Helper()
	synctest.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !cond() {
		t.Fatalf("not so once everything waits: %s (writing %v, queue %d, queued %d)", what, l.writing, len(l.queue), l.queued)
	}
}

// A delta is written at once when nothing is being written (no timer);
// the deltas that arrive while that write is blocked leave together right
// after it, split only where the kind changes; any other update follows
// the pending text, in order, and its OnEvent returns only once it is
// written; seq grows by one per update.
func TestDeltasCoalesceOnlyWhileAWriteIsInProgress(t *testing.T) {
	// In a synctest bubble "the writer is blocked writing" is a state the
	// test waits for (synctest.Wait), not a moment it polls for.
	synctest.Test(t, func(t *testing.T) {
		l, ed := newBlockingListener(t)
		text := func(s string) agent.Event { return agent.Event{Kind: agent.EventText, Text: s} }

		l.OnEvent(text("a"))
		// The writer took "a" at once and is blocked writing it: the editor
		// has not read anything yet.
		settled(t, l, "the first delta is being written", func() bool { return l.writing && len(l.queue) == 0 })
		l.OnEvent(text("b"))
		l.OnEvent(text("c"))
		l.OnEvent(agent.Event{Kind: agent.EventReasoning, Text: "x"})
		l.OnEvent(agent.Event{Kind: agent.EventReasoning, Text: "y"})
		l.OnEvent(text("d"))
		roundEndReturned := make(chan struct{})
		go func() {
			defer close(roundEndReturned)
			l.OnEvent(agent.Event{Kind: agent.EventRoundEnd, ModelStop: "end_turn"})
		}()
		settled(t, l, "round_end is queued", func() bool { return l.queued == 5 })

		want := []sentText{
			{Seq: 1, Kind: "text", Text: "a"},
			{Seq: 2, Kind: "text", Text: "bc"},
			{Seq: 3, Kind: "reasoning", Text: "xy"},
			{Seq: 4, Kind: "text", Text: "d"},
			{Seq: 5, Kind: "round_end"},
		}
		for i, w := range want {
			if i == len(want)-1 {
				select {
				case <-roundEndReturned:
					t.Fatal("OnEvent(round_end) returned before its update was written")
				default:
				}
			}
			got := ed.next()
			if got.SessionID != "s1" || got.Seq != w.Seq || got.Kind != w.Kind || got.Text != w.Text {
				t.Errorf("update %d = %+v, want %+v", i+1, got, w)
			}
		}
		await.Event(t, roundEndReturned, "OnEvent(round_end) to return after its update was written")

		// Idle again: the next delta goes out alone, and close waits for it.
		l.OnEvent(text("e"))
		closed := make(chan struct{})
		go func() {
			defer close(closed)
			l.close()
		}()
		if got := ed.next(); got.Seq != 6 || got.Text != "e" {
			t.Errorf("update after idle = %+v, want seq 6 text e", got)
		}
		await.Event(t, closed, "close to return after the last update was written")
		l.OnEvent(text("late"))
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.writing || len(l.queue) != 0 {
			t.Errorf("a closed listener queued an update (writing %v, queue %d)", l.writing, len(l.queue))
		}
	})
}

// sentText is the part of an agent/update these tests read.
type sentText struct {
	SessionID string `json:"sessionId"`
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
}
