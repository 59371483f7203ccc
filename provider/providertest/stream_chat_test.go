package providertest

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/provider"
)

// richTurn exercises every part of an answer: reasoning, text, two calls
// (one generated id, one scripted; multi-byte arguments) and cached usage.
func richTurn() Turn {
	return Turn{
		Reasoning: "We need the weather in 杭州 and 北京.",
		Text:      "I'll check both cities.",
		ToolCalls: []Call{
			{Name: "get_weather", Arguments: `{"location":"Hangzhou 杭州"}`},
			{ID: "call_01_scripted", Name: "get_weather", Arguments: `{"location":"Beijing","note":"a\"b\\c 🎉"}`},
		},
		Usage: provider.Usage{PromptTokens: 1607, CachedTokens: 1408, CompletionTokens: 92},
	}
}

func TestChatStreamGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"chat_deepseek.sse", nil},
		{"chat_openai_separate_usage.sse", []Option{WithSeparateUsageChunk()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t, Script{richTurn()}, append([]Option{WithSeed(7)}, tc.opts...)...)
			rep := postChat(t, s, chatBody(obj{"role": "user", "content": "weather?"}))
			if rep.status != 200 || rep.err != nil {
				t.Fatalf("status %d, err %v: %s", rep.status, rep.err, rep.body)
			}
			golden(t, tc.name, rep.body)
		})
	}
}

// chatCall is a tool call reassembled from fragments.
type chatCall struct {
	id, typ, name string
	args          strings.Builder
	fragments     int
}

func TestChatStreamShape(t *testing.T) {
	turn := richTurn()
	s := NewServer(t, Script{turn}, WithSeed(3))
	rep := postChat(t, s, chatBody(obj{"role": "user", "content": "weather?"}))
	if rep.status != 200 {
		t.Fatalf("status %d: %s", rep.status, rep.body)
	}
	if ct := rep.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("Content-Type %q", ct)
	}
	if last := rep.frames[len(rep.frames)-1]; last.data != "[DONE]" || last.event != "" {
		t.Fatalf("last frame %+v, want data: [DONE]", last)
	}
	chunks := decodeFrames(t, rep.frames)
	id := chunks[0]["id"]
	var reasoning, text strings.Builder
	var calls []*chatCall
	for n, c := range chunks {
		if c["id"] != id || c["object"] != "chat.completion.chunk" || c["model"] != "deepseek-flash" || c["created"] == nil {
			t.Fatalf("chunk %d lacks the common fields: %v", n, c)
		}
		delta, _ := path(c, "choices", 0, "delta").(map[string]any)
		finish := path(c, "choices", 0, "finish_reason")
		if n == 0 {
			want := map[string]any{"role": "assistant", "content": nil, "reasoning_content": ""}
			if !equalJSON(delta, want) {
				t.Errorf("first delta %v, want %v", delta, want)
			}
			continue
		}
		if finish != nil {
			if n != len(chunks)-1 {
				t.Errorf("finish_reason on chunk %d of %d", n, len(chunks))
			}
			if finish != "tool_calls" || !equalJSON(delta, map[string]any{"content": ""}) {
				t.Errorf("finish chunk: reason %v delta %v", finish, delta)
			}
			checkUsage(t, c["usage"], map[string]float64{
				"prompt_tokens": 1607, "completion_tokens": 92, "total_tokens": 1699,
				"prompt_cache_hit_tokens": 1408, "prompt_cache_miss_tokens": 199,
			})
			if got := path(c, "usage", "prompt_tokens_details", "cached_tokens"); got != 1408.0 {
				t.Errorf("prompt_tokens_details.cached_tokens = %v", got)
			}
			continue
		}
		if _, has := c["usage"]; has {
			t.Errorf("chunk %d carries usage before the finish", n)
		}
		switch {
		case delta["tool_calls"] != nil:
			tc := path(delta, "tool_calls", 0).(map[string]any)
			index := int(tc["index"].(float64))
			if index == len(calls) { // first fragment of a new call
				if tc["id"] == nil || tc["type"] != "function" || path(tc, "function", "name") == nil || path(tc, "function", "arguments") != "" {
					t.Fatalf("first fragment of call %d: %v", index, tc)
				}
				calls = append(calls, &chatCall{id: tc["id"].(string), typ: "function", name: path(tc, "function", "name").(string)})
				continue
			}
			if index != len(calls)-1 {
				t.Fatalf("fragment for call %d while call %d is open", index, len(calls)-1)
			}
			if len(tc) != 2 || len(tc["function"].(map[string]any)) != 1 {
				t.Errorf("later fragment carries more than index and arguments: %v", tc)
			}
			calls[index].args.WriteString(path(tc, "function", "arguments").(string))
			calls[index].fragments++
		case delta["reasoning_content"] != nil:
			if v, has := delta["content"]; !has || v != nil {
				t.Errorf("reasoning delta without content:null: %v", delta)
			}
			if text.Len() > 0 {
				t.Errorf("reasoning after content")
			}
			reasoning.WriteString(delta["reasoning_content"].(string))
		default:
			if v, has := delta["reasoning_content"]; !has || v != nil {
				t.Errorf("content delta without reasoning_content:null: %v", delta)
			}
			text.WriteString(delta["content"].(string))
		}
	}
	if reasoning.String() != turn.Reasoning || text.String() != turn.Text {
		t.Errorf("reasoning %q text %q", reasoning.String(), text.String())
	}
	if len(calls) != 2 {
		t.Fatalf("%d calls, want 2", len(calls))
	}
	if !strings.HasPrefix(calls[0].id, "call_00_") || len(calls[0].id) != len("call_00_")+24 {
		t.Errorf("generated id %q does not look like DeepSeek's", calls[0].id)
	}
	if calls[1].id != "call_01_scripted" {
		t.Errorf("scripted id came back as %q", calls[1].id)
	}
	for i, c := range calls {
		if c.args.String() != turn.ToolCalls[i].Arguments {
			t.Errorf("call %d arguments %q, want %q", i, c.args.String(), turn.ToolCalls[i].Arguments)
		}
		if c.fragments < 2 {
			t.Errorf("call %d arrived in %d fragments; the fake must fragment", i, c.fragments)
		}
	}
}

func TestChatStreamWithoutReasoning(t *testing.T) {
	s := NewServer(t, Script{{Text: "Hi there"}}, WithSeed(1))
	rep := postChat(t, s, chatBody(obj{"role": "user", "content": "hi"}))
	chunks := decodeFrames(t, rep.frames)
	if d := path(chunks[0], "choices", 0, "delta"); !equalJSON(d, map[string]any{"role": "assistant", "content": ""}) {
		t.Errorf("first delta %v", d)
	}
	for _, c := range chunks[1:] {
		if _, has := path(c, "choices", 0, "delta").(map[string]any)["reasoning_content"]; has {
			t.Errorf("reasoning_content in a turn without reasoning: %v", c)
		}
	}
	last := chunks[len(chunks)-1]
	if path(last, "choices", 0, "finish_reason") != "stop" {
		t.Errorf("finish %v", last)
	}
}

func TestChatSeparateUsageChunk(t *testing.T) {
	s := NewServer(t, Script{{Text: "ok", Usage: provider.Usage{PromptTokens: 10, CompletionTokens: 3}}}, WithSeparateUsageChunk(), WithSeed(1))
	rep := postChat(t, s, chatBody(obj{"role": "user", "content": "hi"}))
	chunks := decodeFrames(t, rep.frames)
	finish, usage := chunks[len(chunks)-2], chunks[len(chunks)-1]
	if path(finish, "choices", 0, "finish_reason") != "stop" || finish["usage"] != nil {
		t.Errorf("finish chunk %v", finish)
	}
	if ch, ok := usage["choices"].([]any); !ok || len(ch) != 0 {
		t.Errorf("usage chunk choices %v, want []", usage["choices"])
	}
	checkUsage(t, usage["usage"], map[string]float64{"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13})
	for _, c := range chunks[:len(chunks)-1] {
		if v, has := c["usage"]; !has || v != nil {
			t.Errorf("OpenAI chunks carry usage:null before the usage chunk: %v", c)
		}
	}
}

func TestChatFinishReasons(t *testing.T) {
	for _, tc := range []struct {
		turn Turn
		want string
	}{
		{Turn{Text: "a"}, "stop"},
		{Turn{ToolCalls: []Call{{Name: "f", Arguments: "{}"}}}, "tool_calls"},
		{Turn{Text: "a", Stop: provider.StopMaxTokens}, "length"},
		{Turn{Text: "a", Stop: provider.StopOther}, "content_filter"},
		{Turn{Text: "a", WireStop: "insufficient_system_resource"}, "insufficient_system_resource"},
	} {
		s := NewServer(t, Script{tc.turn}, WithSeed(1))
		chunks := decodeFrames(t, postChat(t, s, chatBody(obj{"role": "user", "content": "x"})).frames)
		if got := path(chunks[len(chunks)-1], "choices", 0, "finish_reason"); got != tc.want {
			t.Errorf("%+v: finish_reason %v, want %s", tc.turn, got, tc.want)
		}
	}
}

func TestFragmentsReassembleAtRuneBoundaries(t *testing.T) {
	args := `{"path":"日本語/ファイル.go","text":"a\"b\\c 🎉 \u00e9","n":[1,2,3]}`
	for seed := int64(0); seed < 200; seed++ {
		f := newFragmenter(seed, int(seed%5), 0)
		parts := f.split(args)
		var b strings.Builder
		for _, p := range parts {
			if !utf8.ValidString(p) {
				t.Fatalf("seed %d: fragment %q splits a rune", seed, p)
			}
			if len(p) > 8+utf8.UTFMax-1 {
				t.Fatalf("seed %d: fragment %q longer than 8 bytes plus a rune", seed, p)
			}
			b.WriteString(p)
		}
		if b.String() != args {
			t.Fatalf("seed %d: reassembled %q", seed, b.String())
		}
	}
}

func TestWithDeltaSize(t *testing.T) {
	s := NewServer(t, Script{{Text: "héllo wörld!"}}, WithDeltaSize(3))
	var deltas []string
	for _, c := range decodeFrames(t, postChat(t, s, chatBody(obj{"role": "user", "content": "x"})).frames)[1:] {
		if d, _ := path(c, "choices", 0, "delta", "content").(string); d != "" {
			deltas = append(deltas, d)
		}
	}
	want := []string{"hél", "lo ", "wör", "ld!"}
	if strings.Join(deltas, "|") != strings.Join(want, "|") {
		t.Errorf("deltas %q, want %q", deltas, want)
	}
}

func TestSeedReproducibility(t *testing.T) {
	run := func(seed int64, anthropic bool) []byte {
		s := NewServer(t, Script{richTurn()}, WithSeed(seed))
		var rep reply
		if anthropic {
			rep = postMessages(t, s, messagesBody(obj{"role": "user", "content": "weather?"}))
		} else {
			rep = postChat(t, s, chatBody(obj{"role": "user", "content": "weather?"}))
		}
		return createdRE.ReplaceAll(rep.body, []byte(`"created":0`))
	}
	for _, anthropic := range []bool{false, true} {
		a, b, c := run(11, anthropic), run(11, anthropic), run(12, anthropic)
		if !bytes.Equal(a, b) {
			t.Errorf("anthropic=%v: same seed, different streams", anthropic)
		}
		if bytes.Equal(a, c) {
			t.Errorf("anthropic=%v: different seeds, identical streams", anthropic)
		}
	}
}

func checkUsage(t *testing.T, usage any, want map[string]float64) {
	t.Helper()
	u, ok := usage.(map[string]any)
	if !ok {
		t.Fatalf("usage %v is not an object", usage)
	}
	for k, v := range want {
		if u[k] != v {
			t.Errorf("usage.%s = %v, want %v", k, u[k], v)
		}
	}
}

func equalJSON(a, b any) bool {
	return string(marshal(a)) == string(marshal(b))
}
