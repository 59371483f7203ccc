package providertest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func getJSON(t *testing.T, url string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var v map[string]any
	_ = json.Unmarshal(data, &v)
	return resp, v
}

// The llama.cpp flavour says what it is the ways llama.cpp does: the
// Server header on every answer, /props, meta.n_ctx in the model list, and
// no Ollama /api/version.
func TestLlamaCppFlavourIdentifiesItself(t *testing.T) {
	s := NewServer(t, nil, WithSeed(1), WithLlamaCpp(4096))
	resp, props := getJSON(t, s.OpenAIBaseURL()+"/props")
	if resp.StatusCode != 200 || resp.Header.Get("Server") != "llama.cpp" {
		t.Fatalf("/props: %d, Server %q", resp.StatusCode, resp.Header.Get("Server"))
	}
	if n := path(props, "default_generation_settings", "n_ctx"); n != 4096.0 {
		t.Errorf("/props n_ctx %v", n)
	}
	_, models := getJSON(t, s.OpenAIBaseURL()+"/v1/models")
	if n := path(models, "data", 0, "meta", "n_ctx"); n != 4096.0 {
		t.Errorf("/v1/models meta.n_ctx %v", n)
	}
	resp, _ = getJSON(t, s.OpenAIBaseURL()+"/api/version")
	if resp.StatusCode != 404 || resp.Header.Get("Server") != "llama.cpp" {
		t.Errorf("/api/version: %d, Server %q; want 404 from llama.cpp", resp.StatusCode, resp.Header.Get("Server"))
	}
	if got := len(s.Requests()); got != 0 {
		t.Errorf("probes recorded as %d model requests", got)
	}
}

// llama.cpp signs no thinking (one empty signature_delta) and reads a
// thinking block sent back without a signature; the Anthropic fake refuses
// that block, as the API does.
func TestLlamaCppFlavourThinkingUnsigned(t *testing.T) {
	turn := Turn{Reasoning: "look first", ToolCalls: []Call{{ID: "toolu_1", Name: "read", Arguments: `{"p":"a"}`}}}
	again := Turn{Text: "done"}
	followUp := func(s *Server) reply {
		body := messagesBody(
			obj{"role": "user", "content": "go"},
			obj{"role": "assistant", "content": []obj{
				{"type": "thinking", "thinking": "look first"},
				{"type": "tool_use", "id": "toolu_1", "name": "read", "input": obj{"p": "a"}},
			}},
			obj{"role": "user", "content": []obj{{"type": "tool_result", "tool_use_id": "toolu_1", "content": "text"}}},
		)
		body["thinking"] = obj{"type": "enabled", "budget_tokens": 1024}
		body["max_tokens"] = 2048
		return postMessages(t, s, body)
	}

	s := NewServer(t, Script{turn, again}, WithSeed(2), WithLlamaCpp(8192))
	first := postMessages(t, s, messagesBody(obj{"role": "user", "content": "go"}))
	if first.status != 200 {
		t.Fatalf("first: %d %s", first.status, first.body)
	}
	for _, e := range decodeFrames(t, first.frames) {
		if d, _ := e["delta"].(map[string]any); d["type"] == "signature_delta" && d["signature"] != "" {
			t.Errorf("llama.cpp signed its thinking: %v", d)
		}
	}
	if rep := followUp(s); rep.status != 200 {
		t.Fatalf("llama.cpp refused an unsigned thinking block: %d %s", rep.status, rep.body)
	}

	strict := NewServer(t, Script{turn, again}, WithSeed(2))
	if rep := postMessages(t, strict, messagesBody(obj{"role": "user", "content": "go"})); rep.status != 200 {
		t.Fatalf("first: %d %s", rep.status, rep.body)
	}
	if rep := followUp(strict); rep.status != 400 || !strings.Contains(string(rep.body), "signature") {
		t.Errorf("the Anthropic fake took an unsigned thinking block: %d %s", rep.status, rep.body)
	}
}

// llama.cpp refuses a request asking for more output than its window.
func TestLlamaCppFlavourRefusesOutputPastTheWindow(t *testing.T) {
	s := NewServer(t, Script{{Text: "ok"}}, WithSeed(3), WithLlamaCpp(4096))
	body := chatBody(obj{"role": "user", "content": "hi"})
	body["max_tokens"] = 8192
	if rep := postChat(t, s, body); rep.status != 400 || !strings.Contains(string(rep.body), "n_ctx") {
		t.Fatalf("max_tokens 8192 on a 4096 window: %d %s", rep.status, rep.body)
	}
	body["max_tokens"] = 1024
	if rep := postChat(t, s, body); rep.status != 200 {
		t.Fatalf("max_tokens 1024: %d %s", rep.status, rep.body)
	}
}

// llama.cpp's /v1/completions takes a suffix and drops it; /infill reads it.
func TestLlamaCppFlavourIgnoresCompletionsSuffix(t *testing.T) {
	s := NewServer(t, Script{{FIM: &FIMTurn{Text: "1"}}, {FIM: &FIMTurn{Text: "2"}}}, WithSeed(4), WithLlamaCpp(4096))
	rep := postRaw(t, s.OpenAIBaseURL()+"/v1/completions", chatHeader(),
		mustJSON(t, obj{"model": "m", "prompt": "a", "suffix": "b", "stream": true}))
	if rep.status != 200 || rep.header.Get("Server") != "llama.cpp" {
		t.Fatalf("/v1/completions: %d %s", rep.status, rep.body)
	}
	rep = postRaw(t, s.OpenAIBaseURL()+"/infill", chatHeader(),
		mustJSON(t, obj{"input_prefix": "a", "input_suffix": "b", "stream": true}))
	if rep.status != 200 {
		t.Fatalf("/infill: %d %s", rep.status, rep.body)
	}
	got := s.FIMRequests()
	if len(got) != 2 || !got[0].SuffixIgnored || got[0].Suffix != "" || got[1].SuffixIgnored || got[1].Suffix != "b" {
		t.Fatalf("requests %+v", got)
	}
}
