package anthropic

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// sseFrame is one dispatched SSE frame: its event: name and its data.
type sseFrame struct{ event, data string }

// decodeFrames feeds frames to a fresh decoder as DecodeSSE would: it stops at
// the first error or EventDone, and calls End when the frames run out first.
func decodeFrames(frames []sseFrame) ([]provider.Event, error) {
	dec := NewDialect().NewDecoder()
	var events []provider.Event
	emit := func(e provider.Event) { events = append(events, e) }
	for _, f := range frames {
		if err := dec.Frame(f.event, []byte(f.data), emit); err != nil {
			return events, err
		}
		if n := len(events); n > 0 && events[n-1].Type == provider.EventDone {
			return events, nil
		}
	}
	return events, dec.End(emit)
}

// named builds a frame whose event: name is the payload's type, as the API
// sends them.
func named(data string) sseFrame {
	const key = `"type":"`
	i := strings.Index(data, key) + len(key)
	return sseFrame{event: data[i : i+strings.IndexByte(data[i:], '"')], data: data}
}

// The frames of a DeepSeek /anthropic stream the decoder was first checked
// against (the Seed suffix names that stream): its usage splits the input
// into uncached and cache-read tokens, as wire rule 10 (docs/design.md §5)
// describes.
const (
	frameMessageStartSeed = `{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","model":"deepseek-flash","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":199,"cache_read_input_tokens":1408,"cache_creation_input_tokens":0,"output_tokens":1}}}`
	framePingSeed         = `{"type":"ping"}`
	frameMessageStopSeed  = `{"type":"message_stop"}`
)

func TestDecodeUsageIsTotalInput(t *testing.T) {
	tests := []struct {
		name     string
		delta    string
		wantStop provider.StopReason
		want     provider.Usage
	}{
		{
			name:     "message_delta carries only output_tokens",
			delta:    `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":92}}`,
			wantStop: provider.StopToolUse,
			want:     provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408},
		},
		{
			name:     "message_delta repeats the input counters",
			delta:    `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":200,"cache_read_input_tokens":1536,"cache_creation_input_tokens":64,"output_tokens":44}}`,
			wantStop: provider.StopEndTurn,
			want:     provider.Usage{PromptTokens: 1800, CompletionTokens: 44, CachedTokens: 1536},
		},
		{
			name:     "null counters leave message_start's",
			delta:    `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"input_tokens":null,"output_tokens":8192}}`,
			wantStop: provider.StopMaxTokens,
			want:     provider.Usage{PromptTokens: 1607, CompletionTokens: 8192, CachedTokens: 1408},
		},
		{
			name:     "no usage at all in message_delta",
			delta:    `{"type":"message_delta","delta":{"stop_reason":"stop_sequence"}}`,
			wantStop: provider.StopEndTurn,
			want:     provider.Usage{PromptTokens: 1607, CompletionTokens: 1, CachedTokens: 1408},
		},
		{
			name:     "a stop reason this package does not know",
			delta:    `{"type":"message_delta","delta":{"stop_reason":"refusal"},"usage":{"output_tokens":3}}`,
			wantStop: provider.StopOther,
			want:     provider.Usage{PromptTokens: 1607, CompletionTokens: 3, CachedTokens: 1408},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			events, err := decodeFrames([]sseFrame{named(frameMessageStartSeed), named(tt.delta)})
			if err != nil {
				t.Fatal(err)
			}
			want := []provider.Event{{Type: provider.EventDone, StopReason: tt.wantStop, Usage: tt.want}}
			if !reflect.DeepEqual(events, want) {
				t.Errorf("events = %+v\nwant     %+v", events, want)
			}
		})
	}
}

// TestDecodeParallelToolFragments reassembles two parallel tool calls whose
// argument JSON arrives in fragments keyed by block index, as the Messages
// API streams them.
func TestDecodeParallelToolFragments(t *testing.T) {
	frames := []sseFrame{
		named(frameMessageStartSeed),
		named(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I'll check both cities."}}`),
		named(`{"type":"content_block_stop","index":0}`),
		named(`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"call_00_EQSI","name":"get_weather","input":{}}}`),
		named(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}`),
		named(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"H"}}`),
		named(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ang"}}`),
		named(framePingSeed),
		named(`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_01_duTt","name":"get_weather","input":{}}}`),
		// Interleaved on purpose: the index, not the order, names the call.
		named(`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"location\": \"Bei"}}`),
		named(`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"zhou\"}"}}`),
		named(`{"type":"content_block_stop","index":1}`),
		named(`{"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"jing\"}"}}`),
		named(`{"type":"content_block_stop","index":2}`),
		named(`{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":91}}`),
	}
	events, err := decodeFrames(frames)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	var starts []provider.Event
	args := map[string]string{}
	for _, e := range events {
		switch e.Type {
		case provider.EventText:
			text.WriteString(e.Text)
		case provider.EventToolUseStart:
			starts = append(starts, e)
		case provider.EventToolUseArgs:
			args[e.ToolCallID] += e.Text
		}
	}
	if got := text.String(); got != "I'll check both cities." {
		t.Errorf("text = %q", got)
	}
	wantStarts := []provider.Event{
		{Type: provider.EventToolUseStart, ToolCallID: "call_00_EQSI", ToolName: "get_weather"},
		{Type: provider.EventToolUseStart, ToolCallID: "call_01_duTt", ToolName: "get_weather"},
	}
	if !reflect.DeepEqual(starts, wantStarts) {
		t.Errorf("starts = %+v", starts)
	}
	wantArgs := map[string]string{
		"call_00_EQSI": `{"location": "Hangzhou"}`,
		"call_01_duTt": `{"location": "Beijing"}`,
	}
	if !reflect.DeepEqual(args, wantArgs) {
		t.Errorf("args = %q, want %q", args, wantArgs)
	}
	last := events[len(events)-1]
	if last.Type != provider.EventDone || last.StopReason != provider.StopToolUse {
		t.Errorf("last event = %+v, want done with tool_use", last)
	}
}

func TestDecodeThinkingAndSignature(t *testing.T) {
	frames := []sseFrame{
		named(frameMessageStartSeed),
		named(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"The user wants "}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"a count."}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCkYIARgCIkB"}}`),
		named(`{"type":"content_block_stop","index":0}`),
		named(`{"type":"content_block_start","index":1,"content_block":{"type":"redacted_thinking","data":"EmwKAhgBEgy3va"}}`),
		named(`{"type":"content_block_stop","index":1}`),
		named(`{"type":"content_block_start","index":2,"content_block":{"type":"text","text":"Three"}}`),
		named(`{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":" files."}}`),
		named(`{"type":"content_block_stop","index":2}`),
		named(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":12}}`),
	}
	events, err := decodeFrames(frames)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Event{
		{Type: provider.EventReasoning, Text: "The user wants "},
		{Type: provider.EventReasoning, Text: "a count."},
		{Type: provider.EventReasoningSignature, Text: "EqQBCkYIARgCIkB"},
		{Type: provider.EventText, Text: "Three"},
		{Type: provider.EventText, Text: " files."},
		{Type: provider.EventDone, StopReason: provider.StopEndTurn, Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 12, CachedTokens: 1408}},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events =\n%+v\nwant\n%+v", events, want)
	}
}

// TestDecodeSkipsWhatSaysNothing: pings, block stops, message_stop, frames
// without data and kinds this package does not know emit nothing.
func TestDecodeSkipsWhatSaysNothing(t *testing.T) {
	frames := []sseFrame{
		{event: "ping", data: ""},
		named(framePingSeed),
		named(frameMessageStartSeed),
		named(framePingSeed),
		named(`{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}`),
		named(`{"type":"content_block_stop","index":0}`),
		named(`{"type":"future_event","payload":[1,2,3]}`),
		named(frameMessageStopSeed),
	}
	events, err := decodeFrames(frames)
	if len(events) != 0 {
		t.Errorf("events = %+v, want none", events)
	}
	// No message_delta came, so the stream is still truncated.
	if err == nil || err.Error() != errNoStop.Error() {
		t.Errorf("err = %v, want %v", err, errNoStop)
	}
}

// TestDecodeTypeFromEventName: the payload's type decides; the event: name
// is only the fallback for a payload without one.
func TestDecodeTypeFromEventName(t *testing.T) {
	frames := []sseFrame{
		{event: "content_block_delta", data: `{"index":0,"delta":{"type":"text_delta","text":"hi"}}`},
		{event: "ping", data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}`},
		{event: "", data: `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`},
	}
	events, err := decodeFrames(frames)
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Event{
		{Type: provider.EventText, Text: "hi"},
		{Type: provider.EventText, Text: " there"},
		{Type: provider.EventDone, StopReason: provider.StopEndTurn, Usage: provider.Usage{CompletionTokens: 2}},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v\nwant     %+v", events, want)
	}
}

func TestDecodeErrorEvent(t *testing.T) {
	frames := []sseFrame{
		named(frameMessageStartSeed),
		named(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hel"}}`),
		named(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
		named(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"lo"}}`),
	}
	events, err := decodeFrames(frames)
	if err == nil || !strings.HasSuffix(err.Error(), "overloaded_error: Overloaded") {
		t.Fatalf("err = %v, want it to end in overloaded_error: Overloaded", err)
	}
	var se *provider.ServerError
	if !errors.As(err, &se) || se.Type != "overloaded_error" || se.Message != "Overloaded" {
		t.Errorf("err is not a *provider.ServerError{overloaded_error, Overloaded}: %#v", err)
	}
	want := []provider.Event{{Type: provider.EventText, Text: "Hel"}}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v, want %+v", events, want)
	}
}

func TestDecodeRejectsBrokenStreams(t *testing.T) {
	start := named(frameMessageStartSeed)
	tests := []struct {
		name    string
		frames  []sseFrame
		wantErr string
	}{
		{"not JSON", []sseFrame{start, {event: "content_block_delta", data: `{"type":"content_block_delta","index":0,`}}, `"content_block_delta" frame`},
		{"not JSON without event name", []sseFrame{{data: `[DONE]`}}, "data frame"},
		{"two values in one frame", []sseFrame{start, {data: `{"type":"ping"} {"type":"message_delta","delta":{"stop_reason":"end_turn"}}`}}, "after top-level value"},
		{"a value cut short, then more", []sseFrame{start, {data: `{"type":"content_block_delta","index":0,"delta":`}, named(`{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`)}, "unexpected end of JSON input"},
		{"index of the wrong type", []sseFrame{named(`{"type":"content_block_delta","index":"0","delta":{"type":"text_delta","text":"x"}}`)}, "cannot unmarshal"},
		{"type that is no string", []sseFrame{{data: `{"type":7}`}}, "cannot unmarshal"},
		{"tool input for a text block", []sseFrame{
			start,
			named(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
			named(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}`),
		}, "input_json_delta for block 0"},
		{"tool input before any block", []sseFrame{start, named(`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{"}}`)}, "input_json_delta for block 3"},
		{"tool_use without id", []sseFrame{start, named(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","name":"glob","input":{}}}`)}, "tool_use block 0 has no id"},
		{"truncated before message_delta", []sseFrame{
			start,
			named(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`),
			named(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`),
		}, errNoStop.Error()},
		{"message_delta without stop_reason", []sseFrame{start, named(`{"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":5}}`), named(frameMessageStopSeed)}, errNoStop.Error()},
		{"error event without details", []sseFrame{named(`{"type":"error","request_id":"req_7"}`)}, `reported an error: {"type":"error","request_id":"req_7"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeFrames(tt.frames)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// TestDecodeAfterStop: a decoder fed past its EventDone (DecodeSSE stops
// reading there; a direct caller might not) never emits a second Done.
func TestDecodeAfterStop(t *testing.T) {
	dec := NewDialect().NewDecoder()
	var events []provider.Event
	emit := func(e provider.Event) { events = append(events, e) }
	stop := []byte(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`)
	if err := dec.Frame("message_delta", stop, emit); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{framePingSeed, frameMessageStopSeed} {
		if err := dec.Frame("", []byte(data), emit); err != nil {
			t.Errorf("%s after the stop: %v", data, err)
		}
	}
	if err := dec.Frame("message_delta", stop, emit); err == nil {
		t.Error("a second message_delta was accepted")
	}
	if err := dec.End(emit); err != nil {
		t.Errorf("End after the stop: %v", err)
	}
	if len(events) != 1 || events[0].Type != provider.EventDone {
		t.Errorf("events = %+v, want one done", events)
	}
}

// TestDecodeFramesWithWhitespace: blank text around a frame's value is not
// part of the next frame, and a frame bigger than any buffer decodes whole.
func TestDecodeFramesWithWhitespace(t *testing.T) {
	long := strings.Repeat("long text ", 20000)
	events, err := decodeFrames([]sseFrame{
		{data: "\n  " + frameMessageStartSeed + " \r\n\t"},
		{data: `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + long + `"}}` + "\n"},
		{data: ` {"type":"message_delta","delta":{"stop_reason":"end_turn"}}`},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[0].Text != long || events[1].Type != provider.EventDone || events[1].Usage.PromptTokens != 1607 {
		t.Errorf("events = %.200v", events)
	}
}

func TestDecodeWholeInputInBlockStart(t *testing.T) {
	events, err := decodeFrames([]sseFrame{
		named(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a.go"}}}`),
		named(`{"type":"message_delta","delta":{"stop_reason":"tool_use"}}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []provider.Event{
		{Type: provider.EventToolUseStart, ToolCallID: "t1", ToolName: "read_file"},
		{Type: provider.EventToolUseArgs, ToolCallID: "t1", Text: `{"path":"a.go"}`},
		{Type: provider.EventDone, StopReason: provider.StopToolUse},
	}
	if !reflect.DeepEqual(events, want) {
		t.Errorf("events = %+v\nwant     %+v", events, want)
	}
}
