package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/agent-lsp/agent-lsp/provider"
)

// wireChunk is one streamed chunk. It is decoded into the same value frame
// after frame (reset in between) so that a text delta costs little more
// than its string. Fields the agent never needs (id, model, created, ...)
// are not declared and the JSON decoder skips them.
type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	// Error is kept raw: servers disagree on its shape (object or string)
	// and it is rare enough that a second parse costs nothing.
	Error json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index int       `json:"index"`
	Delta wireDelta `json:"delta"`
	// FinishReason is "" while the JSON says null: the stop is decided by
	// the first non-null value.
	FinishReason string `json:"finish_reason"`
}

type wireDelta struct {
	// DeepSeek sends exactly one of these non-null in a delta; the other is
	// null, which leaves the field "" after the reset.
	Content          string              `json:"content"`
	ReasoningContent string              `json:"reasoning_content"`
	ToolCalls        []wireToolCallDelta `json:"tool_calls"`
}

// wireToolCallDelta is one fragment of a tool call. Index identifies the
// call; ID and Name come only on its first fragment.
type wireToolCallDelta struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	// DeepSeek's cache counter; prompt_tokens already includes it.
	PromptCacheHitTokens *int `json:"prompt_cache_hit_tokens"`
	// OpenAI's cache counter, used when DeepSeek's is absent.
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

func (u *wireUsage) neutral() provider.Usage {
	out := provider.Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	switch {
	case u.PromptCacheHitTokens != nil:
		out.CachedTokens = *u.PromptCacheHitTokens
	case u.PromptTokensDetails != nil:
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	return out
}

// openCall maps a fragment index to the id of the call it belongs to.
type openCall struct {
	index int
	id    string
}

// decoder holds the state of one answer stream.
type decoder struct {
	chunk wireChunk
	calls []openCall // few per turn: a slice beats a map

	finished        bool // a finish_reason has been seen
	sawDoneSentinel bool // [DONE] came, but no finish before it
	done            bool // EventDone has been emitted
	stop            provider.StopReason
	usage           provider.Usage
}

func newDecoder() *decoder { return &decoder{} }

var doneSentinel = []byte("[DONE]")

// Frame decodes one SSE frame. The "event:" field is not used by this
// dialect: every frame is a chunk, an error object, or the [DONE] sentinel.
func (d *decoder) Frame(_ string, data []byte, emit func(provider.Event)) error {
	if d.done {
		return nil // nothing after EventDone can change the answer
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	// [DONE] is a sentinel, not JSON: it must never reach the parser.
	if bytes.Equal(data, doneSentinel) {
		if !d.finished {
			// An answer cut short: End reports it, as a truncation (which
			// the caller may retry) rather than a malformed frame.
			d.sawDoneSentinel = true
			return nil
		}
		d.emitDone(emit)
		return nil
	}

	c, err := d.parse(data)
	if err != nil {
		return fmt.Errorf("chat completions chunk %s: %w", excerpt(data), err)
	}
	if len(c.Error) > 0 && !bytes.Equal(c.Error, []byte("null")) {
		return streamError(c.Error)
	}

	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue // only one choice is ever requested (no "n")
		}
		if err := d.delta(&ch.Delta, emit); err != nil {
			return err
		}
		if ch.FinishReason != "" && !d.finished {
			d.finished = true
			d.stop = stopReason(ch.FinishReason)
		}
	}
	if c.Usage != nil {
		d.usage = c.Usage.neutral()
	}
	// DeepSeek puts usage on the finish chunk: done now. OpenAI sends it
	// in a later chunk with empty choices: wait for it, [DONE] or End.
	if d.finished && c.Usage != nil {
		d.emitDone(emit)
	}
	return nil
}

// delta emits the events of one choice's delta, in wire order.
func (d *decoder) delta(dl *wireDelta, emit func(provider.Event)) error {
	if dl.ReasoningContent != "" {
		emit(provider.Event{Type: provider.EventReasoning, Text: dl.ReasoningContent})
	}
	if dl.Content != "" {
		emit(provider.Event{Type: provider.EventText, Text: dl.Content})
	}
	for i := range dl.ToolCalls {
		tc := &dl.ToolCalls[i]
		id, err := d.callID(tc, emit)
		if err != nil {
			return err
		}
		if tc.Function.Arguments != "" {
			emit(provider.Event{Type: provider.EventToolUseArgs, ToolCallID: id, Text: tc.Function.Arguments})
		}
	}
	return nil
}

// callID resolves a fragment to its call's id, opening the call (and
// emitting EventToolUseStart) when the fragment is a first one.
func (d *decoder) callID(tc *wireToolCallDelta, emit func(provider.Event)) (string, error) {
	slot := -1
	for i := range d.calls {
		if d.calls[i].index == tc.Index {
			slot = i
			break
		}
	}
	switch {
	case slot < 0 && tc.ID == "":
		return "", fmt.Errorf("tool call fragment for index %d that no call with an id opened", tc.Index)
	case slot < 0:
		d.calls = append(d.calls, openCall{index: tc.Index, id: tc.ID})
	case tc.ID == "" || d.calls[slot].id == tc.ID:
		// A continuation. Some compatible servers repeat id and name on
		// every fragment: the same id is a continuation too.
		return d.calls[slot].id, nil
	default:
		// A new id on a known index: a server that numbers every call 0.
		// The index now belongs to the new call.
		d.calls[slot].id = tc.ID
	}
	emit(provider.Event{Type: provider.EventToolUseStart, ToolCallID: tc.ID, ToolName: tc.Function.Name})
	return tc.ID, nil
}

// End is called when the body ended before EventDone: a finish whose usage
// never came is still a complete answer; no finish at all is truncation.
func (d *decoder) End(emit func(provider.Event)) error {
	if d.done {
		return nil
	}
	if !d.finished {
		if d.sawDoneSentinel {
			return errors.New("stream ended without finish_reason ([DONE] came first)")
		}
		return errors.New("stream ended without finish_reason")
	}
	d.emitDone(emit)
	return nil
}

func (d *decoder) emitDone(emit func(provider.Event)) {
	d.done = true
	emit(provider.Event{Type: provider.EventDone, StopReason: d.stop, Usage: d.usage})
}

// parse decodes one frame's JSON into the reused chunk. data must be
// trimmed: the frame must be exactly one JSON value.
//
// segmentio/encoding's Unmarshal (already linked in: go.lsp.dev/jsonrpc2
// decodes with it) follows encoding/json's rules, absent and null fields
// left untouched included, but keeps no per-call scanner: a text delta's
// frame costs one allocation (the delta's string) where encoding/json's
// Decoder spent about a fifth of the relay's CPU on its reflection and
// state.
func (d *decoder) parse(data []byte) (*wireChunk, error) {
	c := d.resetChunk()
	if err := fastjson.Unmarshal(data, c); err != nil {
		return nil, err
	}
	return c, nil
}

// resetChunk clears the reused chunk. encoding/json leaves fields that are
// absent (or null) in the input untouched and decodes slice elements into
// the old backing array, so without this a delta would leak into the next.
func (d *decoder) resetChunk() *wireChunk {
	choices := d.chunk.Choices[:cap(d.chunk.Choices)]
	for i := range choices {
		calls := choices[i].Delta.ToolCalls[:cap(choices[i].Delta.ToolCalls)]
		clear(calls)
		choices[i] = wireChoice{Delta: wireDelta{ToolCalls: calls[:0]}}
	}
	d.chunk = wireChunk{Choices: choices[:0]}
	return &d.chunk
}

// stopReason maps finish_reason to the neutral vocabulary. Only
// "tool_calls" continues the agent loop (not the presence of calls).
func stopReason(finish string) provider.StopReason {
	switch finish {
	case "stop":
		return provider.StopEndTurn
	case "tool_calls", "function_call":
		return provider.StopToolUse
	case "length":
		return provider.StopMaxTokens
	}
	// content_filter, insufficient_system_resource, ...
	return provider.StopOther
}

// streamError turns an in-stream error value into a *provider.ServerError
// carrying the server's words, so DecodeSSE reports them as they are.
// OpenAI sends {"message","type","code"}; some compatible servers send a
// bare string.
func streamError(raw json.RawMessage) error {
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		if obj.Type == "" && obj.Code != nil {
			obj.Type = fmt.Sprint(obj.Code)
		}
		return &provider.ServerError{Type: obj.Type, Message: obj.Message}
	}
	var text string
	if json.Unmarshal(raw, &text) == nil && text != "" {
		return &provider.ServerError{Message: text}
	}
	return &provider.ServerError{Message: excerpt(raw)}
}

// excerpt quotes the start of a frame for an error message; whole frames
// can be large and hold user content.
func excerpt(data []byte) string {
	const limit = 120
	if len(data) <= limit {
		return fmt.Sprintf("%q", data)
	}
	return fmt.Sprintf("%q...", data[:limit])
}
