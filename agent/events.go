package agent

import (
	"encoding/json"
	"sync"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// StopReason says why a prompt ended. Front ends (the LSP contract among
// them) see exactly these seven values.
type StopReason string

const (
	// StopEndTurn: the model finished its answer. A model stop the agent does
	// not model (provider.StopOther: a stop sequence, a content filter) also
	// ends the prompt as end_turn; the round_end event still carries the
	// model's own reason in ModelStop, so nothing is hidden.
	StopEndTurn StopReason = "end_turn"
	// StopMaxTokens: the model hit the output token limit.
	StopMaxTokens StopReason = "max_tokens"
	// StopMaxRounds: the model kept asking for tools for Config.MaxRounds
	// rounds. The last tool results are in the history; the next prompt
	// continues from there.
	StopMaxRounds StopReason = "max_rounds"
	// StopAnswerCut: the answer passed Config.MaxAnswerBytes; its stream was
	// closed and the history keeps it cut, with a marker the model reads.
	StopAnswerCut StopReason = "answer_cut"
	// StopToolCallLimit: the answer asked for more than Config.MaxToolCalls
	// tool calls; none was run, and the history keeps its text with a marker.
	StopToolCallLimit StopReason = "tool_call_limit"
	// StopCancelled: the prompt's context was cancelled.
	StopCancelled StopReason = "cancelled"
	// StopError: the model call failed (network, HTTP status, bad stream).
	StopError StopReason = "error"
)

// EventKind tells which fields of an Event are meaningful.
type EventKind string

const (
	// EventText: a text delta of the assistant's answer, in Text.
	EventText EventKind = "text"
	// EventReasoning: a reasoning (thinking) delta, in Text.
	EventReasoning EventKind = "reasoning"
	// EventToolCall: a tool call starts: ToolCallID, ToolName, Arguments.
	EventToolCall EventKind = "tool_call"
	// EventToolResult: a tool call finished: ToolCallID, ToolName, Status,
	// Output (exactly what the model reads).
	EventToolResult EventKind = "tool_result"
	// EventRoundEnd: one model call ended: ModelStop, the call's Usage and
	// Cost, and the session's running Totals.
	EventRoundEnd EventKind = "round_end"
	// EventCompacted: the history was compacted before the request of Round
	// (0 for a manual compaction): BeforeTokens and AfterTokens estimate the
	// request's size; Usage and Cost are those of the summary call (zero when
	// eliding old tool outputs was enough), Totals the session's running totals.
	// It also comes when the server refused Round's request as longer than its
	// context window: the history was compacted and the request goes again.
	EventCompacted EventKind = "compacted"
	// EventPromptEnd: the prompt is over: StopReason, Usage summed over its
	// rounds, Round = number of model calls, Text = final answer text, Err.
	// It is always the last event of a prompt.
	EventPromptEnd EventKind = "prompt_end"
	// EventError: the model call failed; Err says why. A prompt_end with
	// StopReason "error" follows.
	EventError EventKind = "error"
	// EventRetry: the model call of Round failed and is tried again:
	// Retry says which attempt comes, of how many, after what wait, and
	// why. The failed attempt yielded nothing the listener saw.
	EventRetry EventKind = "retry"
	// EventPlan: todo_write replaced the session's plan: Plan is the whole
	// list. It comes between the call's tool_call and tool_result.
	EventPlan EventKind = "plan"
)

// Event is one piece of a prompt's progress. Round numbers the model call
// (from 1) the event belongs to.
type Event struct {
	Kind       EventKind
	Round      int
	Text       string
	ToolCallID string
	ToolName   string
	// Arguments is the call's argument JSON when it is valid, otherwise the
	// raw text the model produced encoded as a JSON string.
	Arguments json.RawMessage
	Status    tools.Status
	Output    string
	// StopReason is set on prompt_end.
	StopReason StopReason
	// ModelStop is the model's own stop reason, set on round_end.
	ModelStop provider.StopReason
	Usage     provider.Usage
	// Cost is the estimated price of this event's model call in USD, set on
	// round_end and compacted. CostUnknown says the model has no price (not
	// in the table, none given by the user): Cost is then 0 and means nothing.
	Cost        float64
	CostUnknown bool
	// Totals are the session's running totals, set on round_end and compacted.
	Totals Totals
	// BeforeTokens and AfterTokens are set on compacted.
	BeforeTokens int
	AfterTokens  int
	// Plan is set on plan.
	Plan []tools.TodoItem
	// Retry is set on retry (Retry.Err is the failed attempt's error).
	Retry provider.Retry
	// Notice is set on prompt_end when the prompt ended at a limit: the
	// line to show (Outcome.Notice).
	Notice string
	Err    error

	// SteerID is set on steer (steer.go).
	SteerID string
	// ParentToolCallID is set on the events of a subagent: the id of the
	// task call that started it (its Round counts the child's model calls).
	ParentToolCallID string
}

// Listener receives a prompt's events.
//
// Delivery is serialized: OnEvent is never called concurrently for one
// prompt, even though tool_call and tool_result events come from the tool
// goroutines, so implementations need no locking. OnEvent should return
// quickly: the model stream and the tools wait for it.
type Listener interface{ OnEvent(Event) }

// ListenerFunc adapts a function to a Listener.
type ListenerFunc func(Event)

// OnEvent calls f(e).
func (f ListenerFunc) OnEvent(e Event) { f(e) }

// serialListener delivers events to a Listener one at a time; a nil
// Listener drops them.
type serialListener struct {
	mu sync.Mutex
	l  Listener
}

func (s *serialListener) emit(e Event) {
	if s.l == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.l.OnEvent(e)
}

// argumentsJSON returns the arguments for an event: the text itself when it
// is valid JSON, else the text as a JSON string, so a listener can always
// embed it in its own JSON.
func argumentsJSON(args string) json.RawMessage {
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	quoted, _ := json.Marshal(args) // marshalling a string cannot fail
	return quoted
}
