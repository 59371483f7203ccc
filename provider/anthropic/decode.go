package anthropic

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	fastjson "github.com/segmentio/encoding/json"

	"github.com/agent-lsp/agent-lsp/provider"
)

// errNoStop is End's error: the connection closed before the answer was
// finished (Messages has no [DONE] sentinel; message_delta's stop_reason is
// the only sign that the answer is complete).
var errNoStop = errors.New("stream ended before message_delta (no stop_reason)")

// maxErrorExcerpt bounds the raw payload kept from an error event that has no
// error type or message of its own.
const maxErrorExcerpt = 200

// decoder is the state of one Messages stream. After Frame returns an error
// the stream is over: the decoder is not meant to be fed again.
type decoder struct {
	frame wireFrame // reused for every frame
	// tools maps the content-block index of each tool_use block to its id:
	// input_json_delta fragments name only the index. A short slice scanned
	// linearly, since a turn holds a handful of tool calls.
	tools []toolBlock
	usage usageCounts
	done  bool
}

type toolBlock struct {
	index int
	id    string
}

// usageCounts holds the Messages counters as the server reports them:
// InputTokens is only the uncached part of the prompt.
type usageCounts struct {
	input, output, cacheRead, cacheCreation int
}

func (u *usageCounts) apply(w *wireUsage) {
	if w.InputTokens.set {
		u.input = w.InputTokens.value
	}
	if w.OutputTokens.set {
		u.output = w.OutputTokens.value
	}
	if w.CacheReadInputTokens.set {
		u.cacheRead = w.CacheReadInputTokens.value
	}
	if w.CacheCreationInputTokens.set {
		u.cacheCreation = w.CacheCreationInputTokens.value
	}
}

// neutral translates to provider.Usage, whose PromptTokens is the whole
// input: uncached + read from cache + written to cache.
func (u *usageCounts) neutral() provider.Usage {
	return provider.Usage{
		PromptTokens:     u.input + u.cacheRead + u.cacheCreation,
		CompletionTokens: u.output,
		CachedTokens:     u.cacheRead,
	}
}

func (d *decoder) Frame(event string, data []byte, emit func(provider.Event)) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil // an event without data (a bare "event: ping") says nothing
	}
	f := &d.frame
	*f = wireFrame{}
	if err := d.decodeJSON(data, f); err != nil {
		return fmt.Errorf("anthropic: %s frame: %w", frameLabel(event), err)
	}
	typ := f.Type
	if typ == frameUnknown && event != "" {
		// The payload's type is the authority; the event: name is only a
		// fallback for a payload that omits it.
		i, _ := lookupName([]byte(`"`+event+`"`), frameTypes)
		typ = frameType(i)
	}
	if d.done && typ != framePing && typ != frameMessageStop && typ != frameUnknown {
		return fmt.Errorf("anthropic: %s frame after the answer's stop_reason", frameTypes[typ])
	}

	switch typ {
	case frameMessageStart:
		d.usage.apply(&f.Message.Usage)
	case frameContentBlockStart:
		return d.blockStart(f, emit)
	case frameContentBlockDelta:
		return d.blockDelta(f, emit)
	case frameMessageDelta:
		d.usage.apply(&f.Usage)
		if f.Delta.StopReason != "" {
			d.done = true
			emit(provider.Event{
				Type:       provider.EventDone,
				StopReason: stopReason(f.Delta.StopReason),
				Usage:      d.usage.neutral(),
			})
		}
	case frameError:
		// A *provider.ServerError, so DecodeSSE keeps the server's words
		// rather than calling the frame malformed.
		e := &provider.ServerError{Type: f.Error.Type, Message: f.Error.Message}
		if e.Type == "" && e.Message == "" {
			e.Message = strings.ToValidUTF8(string(data[:min(len(data), maxErrorExcerpt)]), "")
		}
		return e
	case frameContentBlockStop, frameMessageStop, framePing, frameUnknown:
		// Nothing to say: the end of the body, not message_stop, ends the
		// stream, and unknown kinds are skipped for forward compatibility.
	}
	return nil
}

// decodeJSON decodes data, which must hold exactly one JSON value, into f.
// segmentio/encoding's Unmarshal (already linked in: go.lsp.dev/jsonrpc2
// decodes with it) keeps encoding/json's rules and calls the same
// UnmarshalJSON methods, but keeps no per-call scanner or reflection
// state: a reused encoding/json Decoder cost several times more per frame.
func (d *decoder) decodeJSON(data []byte, f *wireFrame) error {
	return fastjson.Unmarshal(data, f)
}

func (d *decoder) blockStart(f *wireFrame, emit func(provider.Event)) error {
	b := &f.ContentBlock
	switch b.Type {
	case blockStartText:
		if b.Text != "" {
			emit(provider.Event{Type: provider.EventText, Text: b.Text})
		}
	case blockStartThinking:
		if b.Thinking != "" {
			emit(provider.Event{Type: provider.EventReasoning, Text: b.Thinking})
		}
		if b.Signature != "" {
			emit(provider.Event{Type: provider.EventReasoningSignature, Text: b.Signature})
		}
	case blockStartToolUse:
		if b.ID == "" {
			return fmt.Errorf("anthropic: tool_use block %d has no id", f.Index)
		}
		d.setTool(f.Index, b.ID)
		emit(provider.Event{Type: provider.EventToolUseStart, ToolCallID: b.ID, ToolName: b.Name})
		// The API opens every tool_use block with "input": {} and streams the
		// arguments as deltas; a server that sends the whole input up front
		// instead still gets its arguments through.
		if in := bytes.TrimSpace(b.Input); len(in) > 0 && !bytes.Equal(in, []byte("{}")) && !bytes.Equal(in, []byte("null")) {
			emit(provider.Event{Type: provider.EventToolUseArgs, ToolCallID: b.ID, Text: string(in)})
		}
	case blockStartRedactedThinking, blockUnknown:
		// Redacted thinking carries no text to show and is not kept.
	}
	return nil
}

func (d *decoder) blockDelta(f *wireFrame, emit func(provider.Event)) error {
	delta := &f.Delta
	switch delta.Type {
	case deltaText:
		if delta.Text != "" {
			emit(provider.Event{Type: provider.EventText, Text: delta.Text})
		}
	case deltaThinking:
		if delta.Thinking != "" {
			emit(provider.Event{Type: provider.EventReasoning, Text: delta.Thinking})
		}
	case deltaSignature:
		if delta.Signature != "" {
			emit(provider.Event{Type: provider.EventReasoningSignature, Text: delta.Signature})
		}
	case deltaInputJSON:
		id, ok := d.toolID(f.Index)
		if !ok {
			return fmt.Errorf("anthropic: input_json_delta for block %d, which is no tool_use block", f.Index)
		}
		if delta.PartialJSON != "" {
			emit(provider.Event{Type: provider.EventToolUseArgs, ToolCallID: id, Text: delta.PartialJSON})
		}
	case deltaUnknown:
	}
	return nil
}

func (d *decoder) setTool(index int, id string) {
	for i := range d.tools {
		if d.tools[i].index == index {
			d.tools[i].id = id
			return
		}
	}
	d.tools = append(d.tools, toolBlock{index: index, id: id})
}

func (d *decoder) toolID(index int) (string, bool) {
	for _, t := range d.tools {
		if t.index == index {
			return t.id, true
		}
	}
	return "", false
}

func (d *decoder) End(func(provider.Event)) error {
	if d.done {
		return nil
	}
	return errNoStop
}

func stopReason(s string) provider.StopReason {
	switch s {
	case "end_turn", "stop_sequence":
		return provider.StopEndTurn
	case "tool_use":
		return provider.StopToolUse
	case "max_tokens":
		return provider.StopMaxTokens
	}
	return provider.StopOther
}

func frameLabel(event string) string {
	if event == "" {
		return "data"
	}
	return fmt.Sprintf("%q", event)
}
