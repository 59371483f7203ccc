package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// updateHeader starts every agent/update: the session, its number in the
// session's sequence and the kind. Every payload embeds it first, so its
// fields lead on the wire; session.sendUpdate sets sessionId and seq, the
// payload's maker the kind (kind).
type updateHeader struct {
	SessionID string `json:"sessionId"`
	Seq       int64  `json:"seq"`
	Kind      string `json:"kind"`
}

func (h *updateHeader) header() *updateHeader { return h }

// payload is an agent/update of any kind: a struct embedding updateHeader,
// by pointer (header sets the embedded fields).
type payload interface{ header() *updateHeader }

// kind is the header of an update of kind k, before it is numbered.
func kind(k string) updateHeader { return updateHeader{Kind: k} }

// Payloads of the prompt kinds of agent/update (control.go has the control
// kinds); updates_wire_internal_test.go pins each one's fields and order.
type (
	textUpdate struct { // text, reasoning
		updateHeader
		textBody
	}
	toolCallUpdate struct {
		updateHeader
		toolCallBody
	}
	toolResultUpdate struct {
		updateHeader
		toolResultBody
	}
	roundEndUpdate struct {
		updateHeader
		StopReason string         `json:"stopReason"`
		Usage      provider.Usage `json:"usage"`
		Cost       *float64       `json:"cost,omitempty"` // absent: the model has no price
		CostKnown  bool           `json:"costKnown"`
		Totals     totals         `json:"totals"`
	}
	compactedUpdate struct {
		updateHeader
		BeforeTokens int      `json:"beforeTokens"`
		AfterTokens  int      `json:"afterTokens"`
		Cost         *float64 `json:"cost,omitempty"` // absent: the summary's model has no price
		CostKnown    bool     `json:"costKnown"`
		Totals       totals   `json:"totals"`
	}
	retryUpdate struct {
		updateHeader
		Attempt     int    `json:"attempt"`     // the attempt about to be made, from 2
		MaxAttempts int    `json:"maxAttempts"` // retries included
		DelayMs     int64  `json:"delayMs"`
		Message     string `json:"message"` // why the previous attempt failed
	}
	errorUpdate struct {
		updateHeader
		Message string `json:"message"`
	}
)

// The bodies of the kinds a transcript replays (transcript.go): an update
// and a transcript entry of one kind carry the same fields.
type (
	textBody struct {
		Text string `json:"text"`
	}
	toolCallBody struct {
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	toolResultBody struct {
		ToolCallID string `json:"toolCallId"`
		Name       string `json:"name"`
		Status     string `json:"status"`
		Output     string `json:"output"`
	}
)

// totals are a session's running usage and estimated cost (USD) over every
// model call it made, across restarts. Cost is absent when a call went to
// a model without a price (costKnown false): a part would read as the whole.
type totals struct {
	PromptTokens     int      `json:"promptTokens"`
	CompletionTokens int      `json:"completionTokens"`
	CachedTokens     int      `json:"cachedTokens"`
	Cost             *float64 `json:"cost,omitempty"`
	CostKnown        bool     `json:"costKnown"`
}

func totalsOf(t agent.Totals) totals {
	return totals{PromptTokens: t.Usage.PromptTokens, CompletionTokens: t.Usage.CompletionTokens,
		CachedTokens: t.Usage.CachedTokens, Cost: costOf(t.Cost, t.CostKnown()), CostKnown: t.CostKnown()}
}

// costOf is a cost for the wire: nil when it is unknown, never a made-up 0.
func costOf(cost float64, known bool) *float64 {
	if !known {
		return nil
	}
	return &cost
}

// updateListener is the agent.Listener of one prompt: it sends
// agent/update notifications (numbered per session) and keeps the prompt's
// progress message current.
//
// Updates go out through a queue drained by one writer goroutine, started
// with the listener and ended by close, so a delta never waits for a
// timer and a burst starts no goroutine: when nothing is being written
// the writer takes a delta at once; deltas arriving while a write is in
// progress accumulate and leave as one update right after it (coalescing
// happens only under back-pressure, bounded by the write time), and the
// model's stream never waits for the editor. Every other update waits
// until it, and everything queued before it, is written: it keeps its
// place before the popups, edits and replies that follow it.
type updateListener struct {
	s    *server
	sess *session
	prog *progress

	mu      sync.Mutex // guards the fields below
	wake    sync.Cond  // signalled when the queue gains an entry or the listener closes
	drained sync.Cond  // broadcast when the writer has written a batch or stopped
	queue   []*pendingUpdate
	writing bool  // the writer holds a batch it is writing
	queued  int64 // queue entries ever made
	written int64 // queue entries written (or dropped by a gone client)
	closed  bool
	stopped bool // the writer has returned
	running int  // tool calls started and not finished

	frame updateFrame // the writer's buffer for text updates (update_frame.go)
	// spareDeltas are written delta entries kept for the next ones: a
	// delta that leaves alone (no back-pressure) would otherwise cost an
	// entry and its slice every time.
	spareDeltas []*pendingUpdate
}

// pendingUpdate is one queued update: a text or reasoning delta, to which
// later deltas of the same kind are appended while it waits, or any other
// update, ready to send.
type pendingUpdate struct {
	deltaKind string // "text" or "reasoning"; "" for the other updates
	// deltas are joined once, when the update is written: kept apart until
	// then, they are never copied to grow.
	deltas []string
	size   int // their bytes
	u      payload
}

func (p *pendingUpdate) add(delta string) {
	p.deltas = append(p.deltas, delta)
	p.size += len(delta)
}

func newUpdateListener(s *server, sess *session, prog *progress) *updateListener {
	l := &updateListener{s: s, sess: sess, prog: prog}
	l.wake.L = &l.mu
	l.drained.L = &l.mu
	go l.drain()
	return l
}

// OnEvent implements agent.Listener.
func (l *updateListener) OnEvent(e agent.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if e.ParentToolCallID != "" {
		l.onChildEventLocked(e) // updates_subagent.go
		return
	}
	switch e.Kind {
	case agent.EventText, agent.EventReasoning:
		l.enqueueDeltaLocked(string(e.Kind), e.Text)
		if l.running == 0 {
			l.prog.report(streamingMessage(e.Kind))
		}
	case agent.EventToolCall:
		l.running++
		l.prog.report(runningMessage(e.ToolName))
		l.sendLocked(&toolCallUpdate{updateHeader: kind("tool_call"), toolCallBody: toolCallBody{ToolCallID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments}})
	case agent.EventToolResult:
		l.running--
		if l.running <= 0 {
			l.running = 0
			l.prog.report("Thinking")
		}
		l.sendLocked(&toolResultUpdate{updateHeader: kind("tool_result"),
			toolResultBody: toolResultBody{ToolCallID: e.ToolCallID, Name: e.ToolName, Status: string(e.Status), Output: e.Output}})
	case agent.EventRoundEnd:
		l.sendLocked(&roundEndUpdate{updateHeader: kind("round_end"), StopReason: string(e.ModelStop), Usage: e.Usage,
			Cost: costOf(e.Cost, !e.CostUnknown), CostKnown: !e.CostUnknown, Totals: totalsOf(e.Totals)})
	case agent.EventCompacted:
		l.sendLocked(&compactedUpdate{updateHeader: kind("compacted"), BeforeTokens: e.BeforeTokens, AfterTokens: e.AfterTokens,
			Cost: costOf(e.Cost, !e.CostUnknown), CostKnown: !e.CostUnknown, Totals: totalsOf(e.Totals)})
	case agent.EventRetry:
		msg := "model call failed"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		l.prog.report(fmt.Sprintf("Retrying (%d/%d)", e.Retry.Attempt, e.Retry.Max))
		l.sendLocked(&retryUpdate{updateHeader: kind("retry"), Attempt: e.Retry.Attempt, MaxAttempts: e.Retry.Max,
			DelayMs: e.Retry.Delay.Milliseconds(), Message: msg})
	case agent.EventError:
		msg := "model call failed"
		if e.Err != nil {
			msg = e.Err.Error()
		}
		l.sendLocked(&errorUpdate{updateHeader: kind("error"), Message: msg})
	case agent.EventSteer:
		l.sendLocked(&steerUpdate{updateHeader: kind("steer"), ID: e.SteerID, Prompt: e.Text})
	case agent.EventPromptEnd:
		l.closeLocked()
	}
}

// close waits until every queued update is written, stops sending and
// ends the writer; the prompt's reply follows every update of the prompt.
// Every listener must be closed (OnEvent's EventPromptEnd does it too).
func (l *updateListener) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closeLocked()
}

func (l *updateListener) closeLocked() {
	l.closed = true
	l.wake.Signal()
	for !l.stopped {
		l.drained.Wait()
	}
}

// maxCoalesced bounds the text of one coalesced update: a long answer
// behind a slow editor goes out in updates of this size, not as one update
// the daemon would grow by copying and then marshal whole.
const maxCoalesced = 64 << 10

// enqueueDeltaLocked appends a delta to the last queued update when that is
// a delta of the same kind not yet taken by the writer and not yet
// maxCoalesced long, else queues it.
func (l *updateListener) enqueueDeltaLocked(kind, text string) {
	if n := len(l.queue); n > 0 && l.queue[n-1].deltaKind == kind && l.queue[n-1].size < maxCoalesced {
		l.queue[n-1].add(text)
		return
	}
	var p *pendingUpdate
	if n := len(l.spareDeltas); n > 0 {
		p, l.spareDeltas = l.spareDeltas[n-1], l.spareDeltas[:n-1]
		p.deltaKind = kind
	} else {
		p = &pendingUpdate{deltaKind: kind}
	}
	p.add(text)
	l.enqueueLocked(p)
}

// sendLocked queues u behind the pending deltas and waits until it is
// written.
func (l *updateListener) sendLocked(u payload) {
	mine := l.enqueueLocked(&pendingUpdate{u: u})
	for l.written < mine {
		l.drained.Wait()
	}
}

// enqueueLocked queues p, wakes the writer, and returns the number of
// entries that must be written for p to be out.
func (l *updateListener) enqueueLocked(p *pendingUpdate) int64 {
	l.queue = append(l.queue, p)
	l.queued++
	l.wake.Signal()
	return l.queued
}

// drain is the writer, the listener's one goroutine: it waits for queued
// updates, takes the whole queue, writes it, and repeats; once the
// listener is closed and the queue is empty it returns. Being the only
// writer, it sends updates in queue order and seq grows by one per update.
func (l *updateListener) drain() {
	l.mu.Lock()
	defer l.mu.Unlock()
	var spare []*pendingUpdate // the previous batch's array, reused for the queue
	for {
		for len(l.queue) == 0 && !l.closed {
			l.wake.Wait()
		}
		if len(l.queue) == 0 {
			break
		}
		batch := l.queue
		l.queue = spare[:0]
		l.writing = true
		l.mu.Unlock()
		for _, p := range batch {
			l.write(p)
		}
		l.mu.Lock()
		l.keepSpares(batch)
		clear(batch)
		spare = batch
		l.writing = false
		l.written += int64(len(batch))
		l.drained.Broadcast()
	}
	l.stopped = true
	l.drained.Broadcast()
}

// maxSpareDeltas bounds the entries kept for reuse; keptDeltas the
// strings an entry's slice may keep room for (a burst behind a slow editor
// is not held for the rest of the prompt).
const (
	maxSpareDeltas = 4
	keptDeltas     = 64
)

// keepSpares keeps the batch's written delta entries, emptied, for reuse.
func (l *updateListener) keepSpares(batch []*pendingUpdate) {
	for _, p := range batch {
		if p.deltaKind == "" || len(l.spareDeltas) == maxSpareDeltas || cap(p.deltas) > keptDeltas {
			continue
		}
		clear(p.deltas)
		*p = pendingUpdate{deltas: p.deltas[:0]}
		l.spareDeltas = append(l.spareDeltas, p)
	}
}

// write numbers one update and sends it; only the writer calls it.
func (l *updateListener) write(p *pendingUpdate) {
	if p.deltaKind != "" {
		l.sess.sendText(l.s, p.deltaKind, strings.Join(p.deltas, ""), &l.frame)
		return
	}
	l.sess.sendUpdate(l.s, p.u)
}
