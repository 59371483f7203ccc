package providertest

import (
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

// Script is what the fake model says: request i that the server accepts is
// answered by Turn i.
type Script []Turn

// Turn is one scripted answer.
type Turn struct {
	// Reasoning is the thinking text: reasoning_content deltas in Chat
	// Completions, a thinking block closed by a signature_delta in Messages.
	Reasoning string
	Text      string
	// Generated, when set, streams more text after Text (which must not be
	// empty) without the server holding it (generated.go).
	Generated *GeneratedText
	ToolCalls []Call
	// Usage: PromptTokens is the total input (cached or not), CachedTokens the
	// part of it read from the cache, CompletionTokens the output.
	Usage provider.Usage
	// Stop defaults to StopToolUse when ToolCalls is not empty, else StopEndTurn.
	Stop provider.StopReason
	// WireStop, when set, is sent verbatim as finish_reason / stop_reason
	// instead of the mapping of Stop ("stop_sequence", "insufficient_system_resource").
	WireStop string
	// Fault replaces or disturbs the answer.
	Fault *Fault
	// FIM, when set, makes this a fill-in-the-middle turn: it answers a
	// request to one of the FIM endpoints (fim_script.go), and only such a
	// request. Fault's Status, Drop, Garbage, ErrorEvent and NoFinish apply
	// to it; its delays and stalls are FIM's own.
	FIM *FIMTurn
	// Check, when set, inspects the request this turn would answer. An error
	// refuses the request with 400 and the error's text (recorded as the
	// rejection); the turn is not consumed. Check runs while the server holds
	// its script lock: it may call Requests but not Append.
	Check func(r Received) error
}

// Call is one scripted tool call.
type Call struct {
	// ID is generated when empty: "call_00_…" (index-prefixed, as DeepSeek
	// does) in Chat Completions, "toolu_…" in Messages.
	ID   string
	Name string
	// Arguments is the argument JSON text, streamed byte for byte.
	Arguments string
}

// Forever, as Fault.Stall, stalls until the client goes away or the server closes.
const Forever time.Duration = -1

// Fault disturbs a turn's answer. The frame positions count SSE frames
// (events) written after the response headers, a ping counting as one; a
// position beyond the end of the stream means "after the last frame". Several
// kinds may be combined; at one position they apply in the order stall,
// garbage, error event, drop.
type Fault struct {
	// Status answers this HTTP status with Body (a JSON error shaped for the
	// dialect when Body is empty) instead of a stream.
	Status     int
	Body       string
	RetryAfter string // Retry-After header value sent with Status

	// Drop closes the connection abruptly after DropAfterFrames frames (or
	// AfterFrames when DropAfterFrames is 0): the chunked body is never
	// terminated, so the client's read fails with an unexpected EOF.
	// DropAfterFrames > 0 implies Drop.
	Drop            bool
	DropAfterFrames int

	// Garbage writes a data line that is not JSON after GarbageAfterFrames
	// frames (or AfterFrames), then continues the stream as scripted.
	// GarbageAfterFrames > 0 implies Garbage.
	Garbage            bool
	GarbageAfterFrames int

	// Stall stops writing for this long after StallAfterFrames frames (or
	// AfterFrames), then continues the stream; Forever (or any negative
	// value, or StallAfterFrames > 0 with Stall 0) stalls until the client
	// goes away. The response headers are always sent before the stall.
	Stall            time.Duration
	StallAfterFrames int

	// ErrorEvent ends the stream after AfterFrames frames with an in-stream
	// error: Messages `event: error` {"type":"error","error":{"type":
	// "overloaded_error","message":"Overloaded"}}; Chat Completions
	// `data: {"error":{"message":…,"type":"server_error",…}}`.
	ErrorEvent bool

	// NoFinish ends the stream cleanly without its finish: Chat Completions
	// sends no finish_reason chunk, usage chunk or [DONE]; Messages sends no
	// message_delta or message_stop.
	NoFinish bool

	// AfterFrames is the position shared by the kinds without their own.
	AfterFrames int
}

func (f *Fault) dropAt() (int, bool) {
	if f.DropAfterFrames > 0 {
		return f.DropAfterFrames, true
	}
	return f.AfterFrames, f.Drop
}

func (f *Fault) garbageAt() (int, bool) {
	if f.GarbageAfterFrames > 0 {
		return f.GarbageAfterFrames, true
	}
	return f.AfterFrames, f.Garbage
}

func (f *Fault) stallAt() (int, bool) {
	if f.StallAfterFrames > 0 {
		return f.StallAfterFrames, true
	}
	return f.AfterFrames, f.Stall != 0
}

func (t Turn) stop() provider.StopReason {
	switch {
	case t.Stop != "":
		return t.Stop
	case len(t.ToolCalls) > 0:
		return provider.StopToolUse
	default:
		return provider.StopEndTurn
	}
}

// chatFinishReason is the Chat Completions spelling of the turn's stop.
func (t Turn) chatFinishReason() string {
	if t.WireStop != "" {
		return t.WireStop
	}
	switch t.stop() {
	case provider.StopToolUse:
		return "tool_calls"
	case provider.StopMaxTokens:
		return "length"
	case provider.StopEndTurn:
		return "stop"
	default:
		return "content_filter"
	}
}

// messagesStopReason is the Messages spelling of the turn's stop.
func (t Turn) messagesStopReason() string {
	if t.WireStop != "" {
		return t.WireStop
	}
	switch t.stop() {
	case provider.StopToolUse:
		return "tool_use"
	case provider.StopMaxTokens:
		return "max_tokens"
	case provider.StopEndTurn:
		return "end_turn"
	default:
		return "refusal"
	}
}
