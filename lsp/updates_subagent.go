package lsp

import (
	"fmt"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// subagentHeader heads a subagent's agent/update: the parent session's
// header (its sessionId and seq) and the id of the task call that started
// the subagent.
type subagentHeader struct {
	updateHeader
	ParentToolCallID string `json:"parentToolCallId"`
}

// The payloads of a subagent's updates: the kinds of a prompt's, with the
// subagent's header (wire_examples_test.go pins them).
type (
	subagentTextUpdate struct { // text, reasoning
		subagentHeader
		textBody
	}
	subagentToolCallUpdate struct {
		subagentHeader
		toolCallBody
	}
	subagentToolResultUpdate struct {
		subagentHeader
		toolResultBody
	}
	subagentRoundEndUpdate struct {
		subagentHeader
		StopReason string         `json:"stopReason"`
		Usage      provider.Usage `json:"usage"` // the child's call
		Cost       *float64       `json:"cost,omitempty"`
		CostKnown  bool           `json:"costKnown"`
		Totals     totals         `json:"totals"` // the session's, children included
	}
	subagentCompactedUpdate struct {
		subagentHeader
		BeforeTokens int      `json:"beforeTokens"`
		AfterTokens  int      `json:"afterTokens"`
		Cost         *float64 `json:"cost,omitempty"`
		CostKnown    bool     `json:"costKnown"`
		Totals       totals   `json:"totals"`
	}
	subagentRetryUpdate struct {
		subagentHeader
		Attempt     int    `json:"attempt"`
		MaxAttempts int    `json:"maxAttempts"`
		DelayMs     int64  `json:"delayMs"`
		Message     string `json:"message"`
	}
	subagentErrorUpdate struct {
		subagentHeader
		Message string `json:"message"`
	}
)

// onChildEventLocked sends a subagent's event as the parent session's
// agent/update of the same kind, marked with the task call's id. Its text
// and reasoning deltas are coalesced like the parent's, but only with the
// same child's of the same kind; the progress message stays the
// parent's ("Running task").
func (l *updateListener) onChildEventLocked(e agent.Event) {
	h := subagentHeader{updateHeader: kind(string(e.Kind)), ParentToolCallID: e.ParentToolCallID}
	switch e.Kind {
	case agent.EventText, agent.EventReasoning:
		l.enqueueChildDeltaLocked(h, e.Text)
	case agent.EventToolCall:
		l.sendLocked(&subagentToolCallUpdate{subagentHeader: h,
			toolCallBody: toolCallBody{ToolCallID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments}})
	case agent.EventToolResult:
		l.sendLocked(&subagentToolResultUpdate{subagentHeader: h,
			toolResultBody: toolResultBody{ToolCallID: e.ToolCallID, Name: e.ToolName, Status: string(e.Status), Output: e.Output}})
	case agent.EventRoundEnd:
		l.sendLocked(&subagentRoundEndUpdate{subagentHeader: h, StopReason: string(e.ModelStop), Usage: e.Usage,
			Cost: costOf(e.Cost, !e.CostUnknown), CostKnown: !e.CostUnknown, Totals: totalsOf(e.Totals)})
	case agent.EventCompacted:
		l.sendLocked(&subagentCompactedUpdate{subagentHeader: h, BeforeTokens: e.BeforeTokens, AfterTokens: e.AfterTokens,
			Cost: costOf(e.Cost, !e.CostUnknown), CostKnown: !e.CostUnknown, Totals: totalsOf(e.Totals)})
	case agent.EventRetry:
		l.sendLocked(&subagentRetryUpdate{subagentHeader: h, Attempt: e.Retry.Attempt, MaxAttempts: e.Retry.Max,
			DelayMs: e.Retry.Delay.Milliseconds(), Message: errorText(e.Err)})
	case agent.EventError:
		l.sendLocked(&subagentErrorUpdate{subagentHeader: h, Message: errorText(e.Err)})
	}
}

// enqueueChildDeltaLocked queues a child's delta, appended to the last
// queued update when that is the same child's delta of the same kind (the
// queue holds only updates the writer has not taken) and not yet
// maxCoalesced long.
func (l *updateListener) enqueueChildDeltaLocked(h subagentHeader, text string) {
	if n := len(l.queue); n > 0 {
		if last, ok := l.queue[n-1].u.(*subagentTextUpdate); ok && last.subagentHeader == h && len(last.Text) < maxCoalesced {
			last.Text += text
			return
		}
	}
	l.enqueueLocked(&pendingUpdate{u: &subagentTextUpdate{subagentHeader: h, textBody: textBody{Text: text}}})
}

func errorText(err error) string {
	if err == nil {
		return "model call failed"
	}
	return fmt.Sprint(err)
}
