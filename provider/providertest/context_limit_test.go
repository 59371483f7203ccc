package providertest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// overflowOf reads a reply the way the provider clients do: an HTTPError
// with the status and body, handed to provider.ContextOverflowOf.
func overflowOf(rep reply) (provider.ContextOverflow, bool) {
	return provider.ContextOverflowOf(&provider.HTTPError{Status: rep.status, Body: string(rep.body)})
}

func TestContextLimitBodiesAreOverflows(t *testing.T) {
	const limit, completion = 300, 100
	long := strings.Repeat("word ", 400) // about 500 tokens by the fake's count
	cases := []struct {
		kind     LimitKind
		messages bool // Messages dialect, else Chat Completions
		wantKeys []string
		extra    int // completion budget the kind counts
	}{
		{LimitLlamaCpp, false, []string{`"exceed_context_size_error"`, `"n_ctx":300`}, 0},
		{LimitOpenAI, false, []string{`"context_length_exceeded"`, `"param":"messages"`, `your messages resulted in`}, 0},
		{LimitVLLM, false, []string{`"object":"error"`, `"BadRequestError"`, `"param":null`, `in the completion`}, completion},
		{LimitAnthropic, true, []string{`"type":"error"`, `"invalid_request_error"`, `prompt is too long`}, 0},
	}
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			s := NewServer(t, Script{{Text: "after"}}, WithSeed(1), WithContextLimit(limit, tc.kind))
			post, body := postChat, chatBody
			if tc.messages {
				post, body = postMessages, messagesBody
			}
			big := body(obj{"role": "user", "content": long})
			big["max_tokens"] = completion
			rep := post(t, s, big)
			if rep.status != 400 {
				t.Fatalf("status %d, want 400; body %s", rep.status, rep.body)
			}
			for _, k := range tc.wantKeys {
				if !bytes.Contains(rep.body, []byte(k)) {
					t.Errorf("body %s lacks %s", rep.body, k)
				}
			}
			prompt := PromptTokens(mustJSON(t, big))
			if prompt <= limit {
				t.Fatalf("test request counts %d tokens, not over %d", prompt, limit)
			}
			o, ok := overflowOf(rep)
			if !ok || o.Limit != limit || o.Requested != prompt+tc.extra {
				t.Errorf("ContextOverflowOf = %+v, %v; want Limit %d Requested %d", o, ok, limit, prompt+tc.extra)
			}
			if s.Consumed() != 0 || s.Overflows() != 1 {
				t.Errorf("after the refusal: consumed %d, overflows %d; want 0, 1", s.Consumed(), s.Overflows())
			}
			small := body(obj{"role": "user", "content": "hi"})
			if rep := post(t, s, small); rep.status != 200 {
				t.Fatalf("small request: status %d, body %s", rep.status, rep.body)
			}
			got := s.Requests()
			if len(got) != 2 || got[0].Turn != -1 || got[0].Status != 400 || got[0].Rejected == "" || got[1].Turn != 0 {
				t.Errorf("requests %+v: want the refusal (turn -1) then turn 0", got)
			}
			want := []int{prompt, PromptTokens(mustJSON(t, small))}
			if rt := s.RequestTokens(); len(rt) != 2 || rt[0] != want[0] || rt[1] != want[1] {
				t.Errorf("RequestTokens %v, want %v", rt, want)
			}
		})
	}
}

// TestContextLimitEdges pins where each kind draws the line: llama.cpp
// refuses a prompt that fills n_ctx exactly, OpenAI serves it; vLLM adds
// max_tokens to the prompt.
func TestContextLimitEdges(t *testing.T) {
	req := chatBody(obj{"role": "user", "content": strings.Repeat("x", 200)})
	p := PromptTokens(mustJSON(t, req))
	cases := []struct {
		kind      LimitKind
		limit     int
		maxTokens int
		refused   bool
	}{
		{LimitLlamaCpp, p, 0, true},
		{LimitLlamaCpp, p + 1, 0, false},
		{LimitOpenAI, p, 0, false},
		{LimitOpenAI, p - 1, 0, true},
		{LimitAnthropic, p, 0, false},
		{LimitVLLM, p + 10, 10, false},
		{LimitVLLM, p + 10, 11, true},
	}
	for _, tc := range cases {
		s := NewServer(t, Script{{Text: "ok"}}, WithSeed(1), WithContextLimit(tc.limit, tc.kind))
		body := chatBody(req["messages"].([]obj)...)
		if tc.maxTokens > 0 {
			body["max_tokens"] = tc.maxTokens
		}
		rep := postChat(t, s, body)
		if refused := rep.status == 400; refused != tc.refused {
			t.Errorf("%s limit %d (prompt %d, max_tokens %d): status %d, want refused=%v; %s",
				tc.kind, tc.limit, p, tc.maxTokens, rep.status, tc.refused, rep.body)
		}
		if _, ok := overflowOf(rep); ok != tc.refused {
			t.Errorf("%s limit %d: ContextOverflowOf %v, want %v", tc.kind, tc.limit, ok, tc.refused)
		}
	}
}

// TestContextLimitUsageAgrees: under the window the script is served and a
// turn without scripted prompt tokens reports the fake's count, while a
// scripted count is kept.
func TestContextLimitUsageAgrees(t *testing.T) {
	s := NewServer(t, Script{
		{Text: "counted", Usage: provider.Usage{CompletionTokens: 2}},
		{Text: "scripted", Usage: provider.Usage{PromptTokens: 7, CompletionTokens: 1}},
	}, WithSeed(1), WithContextLimit(4096, LimitLlamaCpp))
	body := chatBody(obj{"role": "user", "content": strings.Repeat("abcd", 50)})
	want := PromptTokens(mustJSON(t, body))
	for i, wantPrompt := range []float64{float64(want), 7} {
		rep := postChat(t, s, body)
		if rep.status != 200 {
			t.Fatalf("request %d: status %d %s", i, rep.status, rep.body)
		}
		chunks := decodeFrames(t, rep.frames)
		if got := path(chunks[len(chunks)-1], "usage", "prompt_tokens"); got != wantPrompt {
			t.Errorf("request %d: usage prompt_tokens %v, want %v", i, got, wantPrompt)
		}
	}
	if s.Consumed() != 2 || s.Overflows() != 0 {
		t.Errorf("consumed %d overflows %d, want 2, 0", s.Consumed(), s.Overflows())
	}
}

func TestPromptTokensIgnoresLayout(t *testing.T) {
	v := obj{"model": "m", "system": "be brief", "messages": []obj{{"role": "user", "content": "hello"}},
		"tools": []obj{{"name": "read", "input_schema": obj{"type": "object"}}}, "max_tokens": 5}
	compact := mustJSON(t, v)
	indented, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	c := PromptTokens(compact)
	if c == 0 || PromptTokens(indented) != c {
		t.Errorf("PromptTokens compact %d, indented %d: want equal and non-zero", c, PromptTokens(indented))
	}
	// only system, messages and tools count: model and max_tokens do not
	v["model"], v["max_tokens"] = strings.Repeat("m", 400), 99999
	if got := PromptTokens(mustJSON(t, v)); got != c {
		t.Errorf("PromptTokens moved with model/max_tokens: %d, want %d", got, c)
	}
	if PromptTokens([]byte("not json")) != 0 {
		t.Error("PromptTokens of a non-object should be 0")
	}
}
