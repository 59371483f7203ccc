package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// errNoStop is a stream that ended with neither EventDone nor EventFailure.
var errNoStop = errors.New("model stream ended without a stop reason")

// turn accumulates one assistant turn from a model's event stream.
type turn struct {
	text      strings.Builder
	reasoning strings.Builder
	signature string
	calls     []pendingCall  // in the order the model opened them
	byID      map[string]int // ToolCallID → index in calls
	stop      provider.StopReason
	usage     provider.Usage
	done      bool  // EventDone seen
	err       error // EventFailure seen, or a stream that broke the contract
}

type pendingCall struct {
	id, name string
	args     strings.Builder
}

// add takes one event. It returns false once the turn is over (done or
// failed); later events are ignored.
func (t *turn) add(ev provider.Event) bool {
	if t.over() {
		return false
	}
	switch ev.Type {
	case provider.EventText:
		t.text.WriteString(ev.Text)
	case provider.EventReasoning:
		t.reasoning.WriteString(ev.Text)
	case provider.EventReasoningSignature:
		t.signature = ev.Text
	case provider.EventToolUseStart:
		if _, seen := t.byID[ev.ToolCallID]; seen {
			break // a repeated opening adds nothing: the first one named the call
		}
		if t.byID == nil {
			t.byID = make(map[string]int)
		}
		t.byID[ev.ToolCallID] = len(t.calls)
		t.calls = append(t.calls, pendingCall{id: ev.ToolCallID, name: ev.ToolName})
	case provider.EventToolUseArgs:
		i, ok := t.byID[ev.ToolCallID]
		if !ok && ev.ToolCallID == "" && len(t.calls) > 0 {
			i, ok = len(t.calls)-1, true // a fragment without id continues the open call
		}
		if !ok {
			t.err = fmt.Errorf("model stream: arguments for unknown tool call %q", ev.ToolCallID)
			return false
		}
		t.calls[i].args.WriteString(ev.Text)
	case provider.EventDone:
		t.stop, t.usage, t.done = ev.StopReason, ev.Usage, true
		return false
	case provider.EventFailure:
		t.err = ev.Err
		if t.err == nil {
			t.err = errors.New("model stream failed")
		}
		return false
	}
	return true
}

func (t *turn) over() bool { return t.done || t.err != nil }

// finish is called when the stream ended; it returns the turn's error, if any.
func (t *turn) finish() error {
	if !t.over() {
		t.err = errNoStop
	}
	return t.err
}

// toolCalls returns the completed calls. An empty argument text becomes
// "{}": some models send nothing for a call without arguments, and both the
// tools and the Messages dialect need an object.
func (t *turn) toolCalls() []provider.ToolCall {
	if len(t.calls) == 0 {
		return nil
	}
	out := make([]provider.ToolCall, len(t.calls))
	for i := range t.calls {
		args := t.calls[i].args.String()
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		out[i] = provider.ToolCall{ID: t.calls[i].id, Name: t.calls[i].name, Arguments: args}
	}
	return out
}

// message returns the assistant message for the history. withCalls false
// drops the tool calls (their arguments may be cut short, and a call
// without a result would make the history invalid).
func (t *turn) message(withCalls bool) provider.Message {
	m := provider.Message{
		Role:               provider.RoleAssistant,
		Text:               t.text.String(),
		Reasoning:          t.reasoning.String(),
		ReasoningSignature: t.signature,
	}
	if withCalls {
		m.ToolCalls = t.toolCalls()
	}
	return m
}

// empty reports a message the history must not hold: nothing to say and
// nothing to call (the Messages dialect refuses empty content).
func empty(m provider.Message) bool {
	return m.Text == "" && len(m.ToolCalls) == 0
}
