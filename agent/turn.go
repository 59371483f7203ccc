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
	text      pagedText
	reasoning pagedText
	signature string
	calls     []pendingCall  // in the order the model opened them
	byID      map[string]int // ToolCallID → index in calls
	stop      provider.StopReason
	usage     provider.Usage
	done      bool  // EventDone seen
	err       error // EventFailure seen, or a stream that broke the contract

	// limits bound what is kept (zero: unbounded); size is the bytes of
	// text, reasoning and arguments kept so far; cut says the answer passed
	// a limit and nothing more is taken.
	limits answerLimits
	size   int
	cut    cut
}

type pendingCall struct {
	id, name string
	args     pagedText
}

// add takes one event. It returns false once the turn is over (done,
// failed or cut); later events are ignored.
func (t *turn) add(ev provider.Event) bool {
	_, more := t.take(ev)
	return more
}

// take is add that also returns the part of a text, reasoning or argument
// delta that was kept: all of it, or its head when it crosses the answer's
// size limit (that event cuts the turn).
func (t *turn) take(ev provider.Event) (kept string, more bool) {
	if t.over() {
		return "", false
	}
	switch ev.Type {
	case provider.EventText, provider.EventReasoning, provider.EventToolUseArgs:
		kept = ev.Text
		if room := t.limits.maxBytes - t.size; t.limits.maxBytes > 0 && len(kept) > room {
			kept, t.cut = prefixWithin(kept, room), cutTooLong
		}
		t.size += len(kept)
	}
	switch ev.Type {
	case provider.EventText:
		t.text.WriteString(kept)
	case provider.EventReasoning:
		t.reasoning.WriteString(kept)
	case provider.EventReasoningSignature:
		t.signature = ev.Text
	case provider.EventToolUseStart:
		if _, seen := t.byID[ev.ToolCallID]; seen {
			break // a repeated opening adds nothing: the first one named the call
		}
		if t.limits.maxCalls > 0 && len(t.calls) == t.limits.maxCalls {
			t.cut = cutManyCalls
			return "", false
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
			return "", false
		}
		t.calls[i].args.WriteString(kept)
	case provider.EventDone:
		t.stop, t.usage, t.done = ev.StopReason, ev.Usage, true
		return "", false
	case provider.EventFailure:
		t.err = ev.Err
		if t.err == nil {
			t.err = errors.New("model stream failed")
		}
		return "", false
	}
	return kept, t.cut == notCut
}

func (t *turn) over() bool { return t.done || t.err != nil || t.cut != notCut }

// finish is called when the stream ended; it returns the turn's error, if
// any. A cut turn ended as the agent chose: no error.
func (t *turn) finish() error {
	if t.cut != notCut {
		return nil
	}
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

// cutMessage is the history's message for a cut turn: the text kept and
// the marker that tells the model why it ends there. Its tool calls are
// dropped (none will run, and a call without a result would make the
// history invalid), and so is its reasoning, which may be cut before its
// signature.
func (t *turn) cutMessage() provider.Message {
	text := t.text.String()
	if text != "" {
		text += "\n\n"
	}
	return provider.Message{Role: provider.RoleAssistant, Text: text + t.limits.marker(t.cut)}
}

// empty reports a message the history must not hold: nothing to say and
// nothing to call (the Messages dialect refuses empty content).
func empty(m provider.Message) bool {
	return m.Text == "" && len(m.ToolCalls) == 0
}
