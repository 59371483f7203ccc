package lsp

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// coalesceDelay is the longest a text or reasoning delta waits to be sent
// with the deltas after it: one notification per delta would flood the
// editor at fast model speeds.
var coalesceDelay = 50 * time.Millisecond

// Payloads of agent/update, one per kind; the header fields come first.
type (
	textUpdate struct {
		SessionID string `json:"sessionId"`
		Seq       int64  `json:"seq"`
		Kind      string `json:"kind"`
		Text      string `json:"text"`
	}
	toolCallUpdate struct {
		SessionID  string          `json:"sessionId"`
		Seq        int64           `json:"seq"`
		Kind       string          `json:"kind"`
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	toolResultUpdate struct {
		SessionID  string `json:"sessionId"`
		Seq        int64  `json:"seq"`
		Kind       string `json:"kind"`
		ToolCallID string `json:"toolCallId"`
		Name       string `json:"name"`
		Status     string `json:"status"`
		Output     string `json:"output"`
	}
	roundEndUpdate struct {
		SessionID  string         `json:"sessionId"`
		Seq        int64          `json:"seq"`
		Kind       string         `json:"kind"`
		StopReason string         `json:"stopReason"`
		Usage      provider.Usage `json:"usage"`
		Cost       float64        `json:"cost"`
		Totals     totals         `json:"totals"`
	}
	compactedUpdate struct {
		SessionID    string  `json:"sessionId"`
		Seq          int64   `json:"seq"`
		Kind         string  `json:"kind"`
		BeforeTokens int     `json:"beforeTokens"`
		AfterTokens  int     `json:"afterTokens"`
		Cost         float64 `json:"cost"`
		Totals       totals  `json:"totals"`
	}
	errorUpdate struct {
		SessionID string `json:"sessionId"`
		Seq       int64  `json:"seq"`
		Kind      string `json:"kind"`
		Message   string `json:"message"`
	}
)

// totals are a session's running usage and estimated cost (USD) over every
// model call it made, across restarts.
type totals struct {
	PromptTokens     int     `json:"promptTokens"`
	CompletionTokens int     `json:"completionTokens"`
	CachedTokens     int     `json:"cachedTokens"`
	Cost             float64 `json:"cost"`
}

func totalsOf(t agent.Totals) totals {
	return totals{PromptTokens: t.Usage.PromptTokens, CompletionTokens: t.Usage.CompletionTokens,
		CachedTokens: t.Usage.CachedTokens, Cost: t.Cost}
}

// updateListener is the agent.Listener of one prompt: it sends
// agent/update notifications (numbered per session, deltas coalesced) and
// keeps the prompt's progress message current.
type updateListener struct {
	s    *server
	sess *session
	prog *progress

	mu      sync.Mutex // guards the fields below and orders seq with sending
	kind    agent.EventKind
	pending strings.Builder
	gen     int // identifies the armed flush timer; a stale one does nothing
	armed   bool
	timer   *time.Timer
	closed  bool
	running int // tool calls started and not finished
}

func newUpdateListener(s *server, sess *session, prog *progress) *updateListener {
	return &updateListener{s: s, sess: sess, prog: prog}
}

// OnEvent implements agent.Listener.
func (l *updateListener) OnEvent(e agent.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	switch e.Kind {
	case agent.EventText, agent.EventReasoning:
		if l.kind != e.Kind {
			l.flushLocked()
			l.kind = e.Kind
		}
		l.pending.WriteString(e.Text)
		if !l.armed {
			l.armed = true
			l.gen++
			gen := l.gen
			l.timer = time.AfterFunc(coalesceDelay, func() { l.flushTimer(gen) })
		}
		if l.running == 0 {
			l.prog.report("Thinking")
		}
	case agent.EventToolCall:
		l.flushLocked()
		l.running++
		l.prog.report(runningMessage(e.ToolName))
		l.send(&toolCallUpdate{Kind: "tool_call", ToolCallID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments})
	case agent.EventToolResult:
		l.flushLocked()
		l.running--
		if l.running <= 0 {
			l.running = 0
			l.prog.report("Thinking")
		}
		l.send(&toolResultUpdate{Kind: "tool_result", ToolCallID: e.ToolCallID, Name: e.ToolName,
			Status: string(e.Status), Output: e.Output})
	case agent.EventRoundEnd:
		l.flushLocked()
		l.send(&roundEndUpdate{Kind: "round_end", StopReason: string(e.ModelStop), Usage: e.Usage,
			Cost: e.Cost, Totals: totalsOf(e.Totals)})
	case agent.EventCompacted:
		l.flushLocked()
		l.send(&compactedUpdate{Kind: "compacted", BeforeTokens: e.BeforeTokens, AfterTokens: e.AfterTokens,
			Cost: e.Cost, Totals: totalsOf(e.Totals)})
	case agent.EventError:
		l.flushLocked()
		msg := "model call failed"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		l.send(&errorUpdate{Kind: "error", Message: msg})
	case agent.EventPromptEnd:
		l.closeLocked()
	}
}

// close flushes what is pending and stops sending; the prompt's reply
// follows every update of the prompt.
func (l *updateListener) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLocked()
}

func (l *updateListener) closeLocked() {
	l.flushLocked()
	l.closed = true
	if l.timer != nil {
		l.timer.Stop()
	}
}

func (l *updateListener) flushTimer(gen int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen != l.gen || !l.armed {
		return
	}
	l.flushLocked()
}

func (l *updateListener) flushLocked() {
	l.armed = false
	if l.pending.Len() == 0 || l.closed {
		return
	}
	text := l.pending.String()
	l.pending.Reset()
	l.send(&textUpdate{Kind: string(l.kind), Text: text})
}

// send numbers an update and writes it; the caller holds l.mu.
func (l *updateListener) send(u any) {
	seq := l.sess.nextSeq()
	switch u := u.(type) {
	case *textUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	case *toolCallUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	case *toolResultUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	case *roundEndUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	case *compactedUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	case *errorUpdate:
		u.SessionID, u.Seq = l.sess.id, seq
	}
	l.s.notify("agent/update", u)
}
