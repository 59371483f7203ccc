package provider

import (
	"context"
	"iter"
)

// EventType tells which field of an Event is meaningful.
type EventType uint8

const (
	// EventText carries a text delta in Text.
	EventText EventType = iota + 1
	// EventReasoning carries a reasoning (thinking) delta in Text.
	EventReasoning
	// EventReasoningSignature carries the Messages dialect's thinking
	// signature in Text; it belongs to the reasoning of the same turn.
	EventReasoningSignature
	// EventToolUseStart opens a tool call: ToolCallID and ToolName.
	EventToolUseStart
	// EventToolUseArgs carries one fragment of a tool call's argument JSON
	// in Text, for ToolCallID. Fragments concatenate to the whole argument.
	EventToolUseArgs
	// EventDone ends a successful stream: StopReason and Usage.
	EventDone
	// EventFailure ends a failed stream: Err.
	EventFailure
)

func (t EventType) String() string {
	switch t {
	case EventText:
		return "text"
	case EventReasoning:
		return "reasoning"
	case EventReasoningSignature:
		return "reasoning_signature"
	case EventToolUseStart:
		return "tool_use_start"
	case EventToolUseArgs:
		return "tool_use_args"
	case EventDone:
		return "done"
	case EventFailure:
		return "failure"
	}
	return "unknown"
}

// Event is one item of a model's streamed answer. It is a plain value (no
// interface boxing) so the hot streaming path allocates nothing per event.
type Event struct {
	Type       EventType
	Text       string
	ToolCallID string
	ToolName   string
	StopReason StopReason
	Usage      Usage
	Err        error
}

// Provider streams a model's answer to one request.
//
// The sequence always ends with exactly one EventDone or EventFailure, unless
// the consumer stops iterating early. Cancelling ctx ends the stream promptly
// with an EventFailure whose Err wraps ctx.Err(); stopping the iteration early
// closes the connection.
type Provider interface {
	Stream(ctx context.Context, req Request) iter.Seq[Event]
}
