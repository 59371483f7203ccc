package openai

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// sseFrames splits SSE text into the data of its frames, the way the
// provider's SSE reader dispatches them (data lines joined, blank line
// dispatches, comments skipped). The tests keep their own small splitter so
// that they exercise the decoder alone.
func sseFrames(t testing.TB, text string) [][]byte {
	t.Helper()
	var frames [][]byte
	var data []string
	flush := func() {
		if data != nil {
			frames = append(frames, []byte(strings.Join(data, "\n")))
			data = nil
		}
	}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	flush()
	return frames
}

func readSSE(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// call is one reassembled tool call as the agent's accumulator would see it.
type call struct{ ID, Name, Args string }

// transcript is what a stream decoded to.
type transcript struct {
	Events    []provider.Event
	Text      string
	Reasoning string
	Calls     []call
	Done      *provider.Event
	DoneFrame int // index of the frame that emitted EventDone; -1 for End
	Err       error
}

// decodeFrames runs frames through a fresh decoder the way DecodeSSE does:
// stop at the first error or EventDone, call End when the frames run out.
func decodeFrames(t testing.TB, frames [][]byte) transcript {
	t.Helper()
	dec := NewDialect().NewDecoder()
	var tr transcript
	frameNo := 0
	emit := func(ev provider.Event) {
		tr.Events = append(tr.Events, ev)
		switch ev.Type {
		case provider.EventText:
			tr.Text += ev.Text
		case provider.EventReasoning:
			tr.Reasoning += ev.Text
		case provider.EventToolUseStart:
			tr.Calls = append(tr.Calls, call{ID: ev.ToolCallID, Name: ev.ToolName})
		case provider.EventToolUseArgs:
			found := false
			for i := range tr.Calls {
				if tr.Calls[i].ID == ev.ToolCallID {
					tr.Calls[i].Args += ev.Text
					found = true
				}
			}
			if !found {
				t.Errorf("arguments for %q before its start", ev.ToolCallID)
			}
		case provider.EventDone:
			if tr.Done != nil {
				t.Errorf("second EventDone: %+v", ev)
			}
			tr.Done = &ev
			tr.DoneFrame = frameNo
		default:
			t.Errorf("unexpected event %v", ev.Type)
		}
	}
	for i, f := range frames {
		frameNo = i
		if tr.Err = dec.Frame("", f, emit); tr.Err != nil || tr.Done != nil {
			return tr
		}
	}
	frameNo = -1
	tr.Err = dec.End(emit)
	return tr
}

const (
	chunkHead = `data: {"id":"x","object":"chat.completion.chunk","created":1764489600,"model":"deepseek-flash",`
	textChunk = chunkHead + `"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}` + "\n\n"
	doneLine  = "data: [DONE]\n\n"
)

func finishChunk(reason, usage string) string {
	s := chunkHead + `"choices":[{"index":0,"delta":{"content":""},"finish_reason":"` + reason + `"}]`
	if usage != "" {
		s += `,"usage":` + usage
	}
	return s + "}\n\n"
}

const seedUsage = `{"prompt_tokens":1607,"completion_tokens":92,"total_tokens":1699,"prompt_cache_hit_tokens":1408,"prompt_cache_miss_tokens":199}`

func TestDecode(t *testing.T) {
	seedTotals := provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408}
	tests := []struct {
		name          string
		sse           string
		wantText      string
		wantReasoning string
		wantCalls     []call
		wantStop      provider.StopReason
		wantUsage     provider.Usage
		wantDoneFrame int    // frame index of EventDone; -1: emitted by End
		wantErr       string // substring; "" means success
	}{
		{
			name:     "seed parallel tool calls with fragmented arguments",
			sse:      readSSE(t, "deepseek_tool_calls.sse"),
			wantText: "I'll check the weather in both cities for you.",
			wantCalls: []call{
				{"call_00_EQSIh2ejOTwD2ifbR6vJ6OcO", "get_weather", `{"location": "Hangzhou"}`},
				{"call_01_duTt6JEv9vE0hLkS1bOXwPxq", "get_weather", `{"location": "Beijing"}`},
			},
			wantStop:      provider.StopToolUse,
			wantUsage:     seedTotals,
			wantDoneFrame: 34, // the finish chunk itself, not [DONE]
		},
		{
			name:          "reasoning then content",
			sse:           readSSE(t, "deepseek_reasoning.sse"),
			wantReasoning: "We need 17 times 23.",
			wantText:      "391",
			wantStop:      provider.StopEndTurn,
			wantUsage:     provider.Usage{PromptTokens: 10, CompletionTokens: 3},
			wantDoneFrame: 8,
		},
		{
			name:          "openai separate usage chunk after finish",
			sse:           readSSE(t, "openai_usage_chunk.sse"),
			wantText:      "Hello! How can I help?",
			wantStop:      provider.StopEndTurn,
			wantUsage:     provider.Usage{PromptTokens: 1607, CompletionTokens: 8, CachedTokens: 1408},
			wantDoneFrame: 9, // the usage-only chunk, one after the finish
		},
		{
			name:          "finish stop with seed usage on the same chunk",
			sse:           textChunk + finishChunk("stop", seedUsage) + doneLine,
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "finish length",
			sse:           textChunk + finishChunk("length", seedUsage) + doneLine,
			wantText:      "Hi",
			wantStop:      provider.StopMaxTokens,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "finish content_filter is other",
			sse:           textChunk + finishChunk("content_filter", seedUsage),
			wantText:      "Hi",
			wantStop:      provider.StopOther,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "finish insufficient_system_resource is other",
			sse:           textChunk + finishChunk("insufficient_system_resource", seedUsage),
			wantText:      "Hi",
			wantStop:      provider.StopOther,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "tool_calls finish with no calls still means tool_use",
			sse:           textChunk + finishChunk("tool_calls", seedUsage),
			wantText:      "Hi",
			wantStop:      provider.StopToolUse,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "stop finish after calls is end_turn: finish_reason decides",
			sse:           chunkHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"glob","arguments":"{}"}}]}}]}` + "\n\n" + finishChunk("stop", seedUsage),
			wantCalls:     []call{{"c1", "glob", "{}"}},
			wantStop:      provider.StopEndTurn,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:          "finish without usage waits for [DONE], which is not parsed",
			sse:           textChunk + finishChunk("stop", "") + doneLine,
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantDoneFrame: 2,
		},
		{
			name:          "finish without usage then end of body",
			sse:           textChunk + finishChunk("stop", `null`),
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantDoneFrame: -1,
		},
		{
			name:          "usage seen before a usage-less finish is kept",
			sse:           chunkHead + `"choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":` + seedUsage + "}\n\n" + finishChunk("stop", "") + doneLine,
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantUsage:     seedTotals,
			wantDoneFrame: 2,
		},
		{
			name:          "openai cached_tokens when deepseek counter absent",
			sse:           textChunk + finishChunk("stop", `{"prompt_tokens":500,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":384}}`),
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantUsage:     provider.Usage{PromptTokens: 500, CompletionTokens: 7, CachedTokens: 384},
			wantDoneFrame: 1,
		},
		{
			name:          "deepseek cache counter wins over cached_tokens",
			sse:           textChunk + finishChunk("stop", `{"prompt_tokens":500,"completion_tokens":7,"prompt_tokens_details":{"cached_tokens":1},"prompt_cache_hit_tokens":256}`),
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantUsage:     provider.Usage{PromptTokens: 500, CompletionTokens: 7, CachedTokens: 256},
			wantDoneFrame: 1,
		},
		{
			name: "id and name repeated on every fragment open one call",
			sse: chunkHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"{\"pa"}}]}}]}` + "\n\n" +
				chunkHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"read_file","arguments":"th\":\"a.go\"}"}}]}}]}` + "\n\n" +
				finishChunk("tool_calls", seedUsage),
			wantCalls:     []call{{"c1", "read_file", `{"path":"a.go"}`}},
			wantStop:      provider.StopToolUse,
			wantUsage:     seedTotals,
			wantDoneFrame: 2,
		},
		{
			name: "comment lines and a second choice are ignored",
			sse: ": keep-alive\n\n" + chunkHead + `"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"Hi"}}]}` + "\n\n" +
				finishChunk("stop", seedUsage),
			wantText:      "Hi",
			wantStop:      provider.StopEndTurn,
			wantUsage:     seedTotals,
			wantDoneFrame: 1,
		},
		{
			name:    "error object mid-stream",
			sse:     textChunk + `data: {"error":{"message":"Rate limit reached for requests","type":"rate_limit_error","code":"rate_limit_exceeded"}}` + "\n\n",
			wantErr: "Rate limit reached for requests",
		},
		{
			name:    "error as a bare string",
			sse:     `data: {"error":"upstream overloaded"}` + "\n\n",
			wantErr: "upstream overloaded",
		},
		{
			name:    "malformed frame",
			sse:     textChunk + `data: {"choices":[{"delta":{"content":"Hi` + "\n\n",
			wantErr: `{\"choices\":[{\"delta\":{\"content\":\"Hi`,
		},
		{
			name:    "truncated stream",
			sse:     textChunk + textChunk,
			wantErr: "stream ended without finish_reason",
		},
		{
			name:    "[DONE] before any finish",
			sse:     textChunk + doneLine,
			wantErr: "stream ended without finish_reason ([DONE] came first)",
		},
		{
			name:    "fragment for an index no call opened",
			sse:     chunkHead + `"choices":[{"index":0,"delta":{"tool_calls":[{"index":3,"function":{"arguments":"{}"}}]}}]}` + "\n\n",
			wantErr: "index 3",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := decodeFrames(t, sseFrames(t, tc.sse))
			if tc.wantErr != "" {
				if tr.Err == nil || !strings.Contains(tr.Err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one containing %q", tr.Err, tc.wantErr)
				}
				if tr.Done != nil {
					t.Fatalf("EventDone emitted on a failed stream: %+v", *tr.Done)
				}
				return
			}
			if tr.Err != nil {
				t.Fatalf("unexpected error: %v", tr.Err)
			}
			if tr.Text != tc.wantText {
				t.Errorf("text = %q, want %q", tr.Text, tc.wantText)
			}
			if tr.Reasoning != tc.wantReasoning {
				t.Errorf("reasoning = %q, want %q", tr.Reasoning, tc.wantReasoning)
			}
			if len(tr.Calls) != len(tc.wantCalls) {
				t.Fatalf("calls = %+v, want %+v", tr.Calls, tc.wantCalls)
			}
			for i := range tc.wantCalls {
				if tr.Calls[i] != tc.wantCalls[i] {
					t.Errorf("call %d = %+v, want %+v", i, tr.Calls[i], tc.wantCalls[i])
				}
			}
			if tr.Done == nil {
				t.Fatal("no EventDone")
			}
			if tr.Done.StopReason != tc.wantStop || tr.Done.Usage != tc.wantUsage {
				t.Errorf("done = %s %+v, want %s %+v", tr.Done.StopReason, tr.Done.Usage, tc.wantStop, tc.wantUsage)
			}
			if tr.DoneFrame != tc.wantDoneFrame {
				t.Errorf("EventDone emitted at frame %d, want %d", tr.DoneFrame, tc.wantDoneFrame)
			}
		})
	}
}

// The fragments must come out as separate events, in wire order, each
// tagged with its call's id, and never as empty events.
func TestDecodeToolCallEventSequence(t *testing.T) {
	tr := decodeFrames(t, sseFrames(t, readSSE(t, "deepseek_tool_calls.sse")))
	if tr.Err != nil {
		t.Fatal(tr.Err)
	}
	var got []string
	for _, ev := range tr.Events {
		switch ev.Type {
		case provider.EventToolUseStart:
			got = append(got, "start "+ev.ToolCallID[:7]+" "+ev.ToolName)
		case provider.EventToolUseArgs:
			got = append(got, ev.ToolCallID[:7]+" "+ev.Text)
		case provider.EventText:
			if ev.Text == "" {
				t.Error("empty text event")
			}
		}
	}
	want := []string{
		"start call_00 get_weather",
		`call_00 {`, `call_00 "`, `call_00 location`, `call_00 "`, `call_00 : `,
		`call_00 "`, `call_00 H`, `call_00 ang`, `call_00 zhou`, `call_00 "`, `call_00 }`,
		"start call_01 get_weather",
		`call_01 {`, `call_01 "`, `call_01 location`, `call_01 "`, `call_01 : `,
		`call_01 "`, `call_01 Bei`, `call_01 jing`, `call_01 "`, `call_01 }`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tool events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A delta may carry both fields with one null, and a first fragment may
// already carry arguments: nothing may be lost or emitted empty.
func TestDecodeSingleFrameShapes(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  []provider.Event
	}{
		{
			name:  "reasoning with null content",
			frame: `{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"We"}}]}`,
			want:  []provider.Event{{Type: provider.EventReasoning, Text: "We"}},
		},
		{
			name:  "content with null reasoning",
			frame: `{"choices":[{"index":0,"delta":{"content":"391","reasoning_content":null}}]}`,
			want:  []provider.Event{{Type: provider.EventText, Text: "391"}},
		},
		{
			name:  "empty role delta",
			frame: `{"choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""}}]}`,
		},
		{
			name:  "first fragment carrying arguments",
			frame: `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c9","type":"function","function":{"name":"grep","arguments":"{\"q\":1}"}}]}}]}`,
			want: []provider.Event{
				{Type: provider.EventToolUseStart, ToolCallID: "c9", ToolName: "grep"},
				{Type: provider.EventToolUseArgs, ToolCallID: "c9", Text: `{"q":1}`},
			},
		},
		{
			name:  "two calls in one delta",
			frame: `{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"glob","arguments":""}},{"index":1,"id":"b","function":{"name":"grep","arguments":"{"}}]}}]}`,
			want: []provider.Event{
				{Type: provider.EventToolUseStart, ToolCallID: "a", ToolName: "glob"},
				{Type: provider.EventToolUseStart, ToolCallID: "b", ToolName: "grep"},
				{Type: provider.EventToolUseArgs, ToolCallID: "b", Text: "{"},
			},
		},
		{
			name:  "empty data and null chunk are nothing",
			frame: `null`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []provider.Event
			err := newDecoder().Frame("", []byte(tc.frame), func(ev provider.Event) { got = append(got, ev) })
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("events = %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("event %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// The chunk value is reused between frames: a field present in one frame
// must not reappear in the next.
func TestDecodeReusedChunkDoesNotLeak(t *testing.T) {
	d := newDecoder()
	var got []provider.Event
	emit := func(ev provider.Event) { got = append(got, ev) }
	frames := []string{
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"glob","arguments":"{}"}}],"content":"x"}}],"usage":{"prompt_tokens":5}}`,
		`{"choices":[{"index":0,"delta":{}}]}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0}]}}]}`,
	}
	for _, f := range frames {
		if err := d.Frame("", []byte(f), emit); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 3 { // text, start, args: the later frames add nothing
		t.Fatalf("events = %+v", got)
	}
}

func TestEndAfterDoneIsQuiet(t *testing.T) {
	d := newDecoder()
	n := 0
	emit := func(provider.Event) { n++ }
	if err := d.Frame("", []byte(`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":`+seedUsage+`}`), emit); err != nil {
		t.Fatal(err)
	}
	if err := d.Frame("", []byte(`{"choices":[],"usage":`+seedUsage+`}`), emit); err != nil {
		t.Fatal(err)
	}
	if err := d.End(emit); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d events, want the single EventDone", n)
	}
}

// An error object in the stream is the server speaking: it must reach the
// caller as a *provider.ServerError so DecodeSSE keeps its words.
func TestDecodeErrorFrameIsServerError(t *testing.T) {
	tests := []struct {
		frame string
		want  provider.ServerError
	}{
		{`{"error":{"message":"Rate limit reached","type":"rate_limit_error","code":"rate_limit_exceeded"}}`, provider.ServerError{Type: "rate_limit_error", Message: "Rate limit reached"}},
		{`{"error":{"message":"Service busy","code":503}}`, provider.ServerError{Type: "503", Message: "Service busy"}},
		{`{"error":"upstream overloaded"}`, provider.ServerError{Message: "upstream overloaded"}},
	}
	for _, tc := range tests {
		err := newDecoder().Frame("", []byte(tc.frame), func(provider.Event) {})
		var se *provider.ServerError
		if !errors.As(err, &se) || *se != tc.want {
			t.Errorf("%s: error = %#v, want %+v", tc.frame, err, tc.want)
		}
	}
}

// The fixtures through the provider's real SSE framer and DecodeSSE: what
// the HTTP provider will do with a live body.
func TestDecodeSSEEndToEnd(t *testing.T) {
	tests := []struct {
		file      string
		wantStop  provider.StopReason
		wantUsage provider.Usage
		wantCalls int
	}{
		{"deepseek_tool_calls.sse", provider.StopToolUse, provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408}, 2},
		{"deepseek_reasoning.sse", provider.StopEndTurn, provider.Usage{PromptTokens: 10, CompletionTokens: 3}, 0},
		{"openai_usage_chunk.sse", provider.StopEndTurn, provider.Usage{PromptTokens: 1607, CompletionTokens: 8, CachedTokens: 1408}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			var done []provider.Event
			calls := 0
			err := provider.DecodeSSE(strings.NewReader(readSSE(t, tc.file)), NewDialect().NewDecoder(), nil, func(ev provider.Event) {
				switch ev.Type {
				case provider.EventDone:
					done = append(done, ev)
				case provider.EventToolUseStart:
					calls++
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(done) != 1 || done[0].StopReason != tc.wantStop || done[0].Usage != tc.wantUsage {
				t.Fatalf("done events = %+v, want one %s %+v", done, tc.wantStop, tc.wantUsage)
			}
			if calls != tc.wantCalls {
				t.Errorf("%d tool calls, want %d", calls, tc.wantCalls)
			}
		})
	}
}

func TestDecodeSSETruncatedIsNoFinish(t *testing.T) {
	err := provider.DecodeSSE(strings.NewReader(textChunk+doneLine), NewDialect().NewDecoder(), nil, func(provider.Event) {})
	if !errors.Is(err, provider.ErrNoFinish) {
		t.Fatalf("error = %v, want one wrapping provider.ErrNoFinish", err)
	}
}
