package connect_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// roundOf streams one request and returns the assistant message it made.
func roundOf(t *testing.T, p provider.Provider, msgs []provider.Message) provider.Message {
	t.Helper()
	req := provider.Request{Model: providertest.LlamaCppModel(), Messages: msgs, MaxTokens: 2048,
		Thinking: provider.Thinking{Enabled: true, Effort: "low"},
		Tools:    []provider.ToolSpec{{Name: "read_file", Description: "read", Schema: []byte(`{"type":"object"}`)}}}
	m := provider.Message{Role: provider.RoleAssistant}
	var args strings.Builder
	for e := range p.Stream(context.Background(), req) {
		switch e.Type {
		case provider.EventFailure:
			t.Fatalf("round refused: %v", e.Err)
		case provider.EventReasoning:
			m.Reasoning += e.Text
		case provider.EventReasoningSignature:
			m.ReasoningSignature += e.Text
		case provider.EventText:
			m.Text += e.Text
		case provider.EventToolUseStart:
			m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: e.ToolCallID, Name: e.ToolName})
		case provider.EventToolUseArgs:
			args.WriteString(e.Text)
		}
	}
	if len(m.ToolCalls) > 0 {
		m.ToolCalls[0].Arguments = args.String()
	}
	return m
}

// The Messages dialect's tool loop on llama.cpp (on a port that is not
// its default, so only its answer names it) keeps thinking on in round 2
// and sends the reasoning back: llama.cpp signs nothing, and Anthropic's
// unsigned-thinking rule is not its. The Anthropic-like fake still refuses
// what Anthropic refuses (providertest's own tests).
func TestMessagesToolLoopKeepsThinkingOnLlamaCpp(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Reasoning: "read it first", ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{Text: "done"},
	}, providertest.WithSeed(5), providertest.WithLlamaCpp(8192))
	cfg := provider.DefaultConfig("anthropic")
	cfg.BaseURL, cfg.APIKeyEnv, cfg.Model = srv.OpenAIBaseURL(), "none", providertest.LlamaCppModel()
	p, closeFn, err := connect.New(cfg, connect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeFn() })

	msgs := []provider.Message{{Role: provider.RoleUser, Text: "look at a.go"}}
	first := roundOf(t, p, msgs)
	if first.Reasoning == "" || first.ReasoningSignature != "" || len(first.ToolCalls) != 1 {
		t.Fatalf("round 1 made %+v, want unsigned reasoning and a call", first)
	}
	msgs = append(msgs, first, provider.Message{Role: provider.RoleTool, ToolCallID: first.ToolCalls[0].ID, Text: "package a"})
	roundOf(t, p, msgs)

	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	read, err := providertest.ReadThinking("anthropic", "llamacpp", reqs[1].Body)
	if err != nil || read.Off {
		t.Errorf("round 2: llama.cpp read %+v, %v: thinking turned off", read, err)
	}
	if !strings.Contains(string(reqs[1].Body), `{"type":"thinking","thinking":"read it first"`) {
		t.Errorf("round 2 dropped the reasoning: %s", reqs[1].Body)
	}
}

// The default configuration puts no DeepSeek-only choice on other servers:
// with thinking on at the default effort, llama.cpp, Ollama and OpenAI's
// reasoning models get no reasoning_effort "high"; DeepSeek still thinks
// (at its own default, which is high).
func TestDefaultEffortIsTheServersOwn(t *testing.T) {
	for base, model := range map[string]string{
		"http://127.0.0.1:8080": "m", "http://127.0.0.1:11434/v1": "m", "https://api.openai.com/v1": "o3", "http://gpu:9000/v1": "m",
	} {
		cfg := provider.DefaultConfig("openai")
		cfg.BaseURL, cfg.Model = base, model
		d, err := connect.DialectFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		body, err := d.Encode(provider.Request{Model: model, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
			Thinking: cfg.ThinkingOption()})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(body), `"reasoning_effort":"high"`) {
			t.Errorf("%s got DeepSeek's default effort: %s", base, body)
		}
	}
	cfg := provider.DefaultConfig("openai")
	d, _ := connect.DialectFor(cfg)
	body, _ := d.Encode(provider.Request{Model: cfg.Model, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}, Thinking: cfg.ThinkingOption()})
	if !strings.Contains(string(body), `"thinking":{"type":"enabled"}`) {
		t.Errorf("DeepSeek no longer thinks by default: %s", body)
	}
}
