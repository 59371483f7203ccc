package connect_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

var dialects = []string{"openai", "anthropic"}

func newProvider(t *testing.T, dialect string, srv *providertest.Server) provider.Provider {
	t.Helper()
	cfg := provider.DefaultConfig(dialect)
	cfg.BaseURL = srv.OpenAIBaseURL()
	if dialect == "anthropic" {
		cfg.BaseURL = srv.AnthropicBaseURL()
	}
	cfg.APIKeyEnv = "TEST_KEY"
	p, closeFn, err := connect.New(cfg, connect.Options{
		Getenv: func(name string) string {
			if name == "TEST_KEY" {
				return "sk-test"
			}
			return ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeFn() })
	return p
}

// canonical is a stream's events with consecutive deltas of one kind (or
// one tool call's argument fragments) joined: fragment boundaries are the
// server's choice, the content is not.
func canonical(events []provider.Event) []provider.Event {
	var out []provider.Event
	for _, e := range events {
		if n := len(out); n > 0 {
			last := &out[n-1]
			joinable := e.Type == provider.EventText || e.Type == provider.EventReasoning || e.Type == provider.EventToolUseArgs
			if joinable && last.Type == e.Type && last.ToolCallID == e.ToolCallID {
				last.Text += e.Text
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func collect(t *testing.T, p provider.Provider, req provider.Request) []provider.Event {
	t.Helper()
	var events []provider.Event
	for e := range p.Stream(context.Background(), req) {
		if e.Type == provider.EventFailure {
			t.Fatalf("stream failed: %v", e.Err)
		}
		events = append(events, e)
	}
	return events
}

var weatherTool = provider.ToolSpec{
	Name:        "get_weather",
	Description: "Current weather of a city",
	Schema:      []byte(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`),
}

// One script through both dialects gives the same events: text, two
// parallel tool calls with byte-identical arguments, the stop reason and
// the usage — the Hangzhou fragments of the measured DeepSeek stream included.
func TestOneScriptSameEventsInBothDialects(t *testing.T) {
	script := providertest.Script{{
		Text: "I'll check the weather in both cities for you.",
		ToolCalls: []providertest.Call{
			{ID: "call_00_EQSI", Name: "get_weather", Arguments: `{"location": "Hangzhou"}`},
			{ID: "call_01_duTt", Name: "get_weather", Arguments: `{"location": "北京", "unit": "celsius"}`},
		},
		Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408},
	}}
	req := provider.Request{Model: "deepseek-flash",
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "Weather in Hangzhou and Beijing?"}},
		Tools:    []provider.ToolSpec{weatherTool}}

	var got [][]provider.Event
	for _, d := range dialects {
		srv := providertest.NewServer(t, script, providertest.WithAPIKey("sk-test"), providertest.WithDeltaSize(3))
		got = append(got, canonical(collect(t, newProvider(t, d, srv), req)))
	}
	want := []provider.Event{
		{Type: provider.EventText, Text: "I'll check the weather in both cities for you."},
		{Type: provider.EventToolUseStart, ToolCallID: "call_00_EQSI", ToolName: "get_weather"},
		{Type: provider.EventToolUseArgs, ToolCallID: "call_00_EQSI", Text: `{"location": "Hangzhou"}`},
		{Type: provider.EventToolUseStart, ToolCallID: "call_01_duTt", ToolName: "get_weather"},
		{Type: provider.EventToolUseArgs, ToolCallID: "call_01_duTt", Text: `{"location": "北京", "unit": "celsius"}`},
		{Type: provider.EventDone, StopReason: provider.StopToolUse,
			Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408}},
	}
	for i, d := range dialects {
		if len(got[i]) != len(want) {
			t.Fatalf("%s: %d events, want %d: %+v", d, len(got[i]), len(want), got[i])
		}
		for j := range want {
			if got[i][j] != want[j] {
				t.Errorf("%s event %d = %+v, want %+v", d, j, got[i][j], want[j])
			}
		}
	}
}

// A three-round tool conversation with reasoning/thinking, built from
// what the fake itself streamed, and a compaction-style system message in
// mid-conversation: the strict fake accepts every request in both dialects.
func TestThreeRoundConversationAccepted(t *testing.T) {
	for _, d := range dialects {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Reasoning: "Need the weather first.", ToolCalls: []providertest.Call{
					{Name: "get_weather", Arguments: `{"location":"Hangzhou"}`},
					{Name: "get_weather", Arguments: `{"location":"Beijing"}`}}},
				{Reasoning: "Now Shanghai.", Text: "One more.", ToolCalls: []providertest.Call{
					{Name: "get_weather", Arguments: `{"location":"Shanghai"}`}}},
				{Reasoning: "All three known.", Text: "Hangzhou is cloudy, Beijing sunny, Shanghai rainy."},
			}, providertest.WithAPIKey("sk-test"))
			p := newProvider(t, d, srv)
			history := []provider.Message{
				{Role: provider.RoleSystem, Text: "You are a weather bot."},
				{Role: provider.RoleUser, Text: "Weather in three cities?"},
			}
			answers := map[string]string{`{"location":"Hangzhou"}`: "cloudy 24℃", `{"location":"Beijing"}`: "sunny 26℃", `{"location":"Shanghai"}`: "rain 20℃"}
			for round := 1; round <= 3; round++ {
				events := collect(t, p, provider.Request{Model: "deepseek-flash", Messages: history,
					Tools: []provider.ToolSpec{weatherTool}, Thinking: provider.Thinking{Enabled: true}})
				msg := assemble(events)
				history = append(history, msg)
				for _, c := range msg.ToolCalls {
					history = append(history, provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Text: answers[c.Arguments]})
				}
				if round == 1 {
					history = append(history, provider.Message{Role: provider.RoleSystem,
						Text: "Summary of earlier conversation: the user wants the weather of three cities."})
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d requests, want 3", len(reqs))
			}
			for i, r := range reqs {
				if r.Rejected != "" {
					t.Errorf("request %d rejected: %s", i+1, r.Rejected)
				}
			}
			if last := history[len(history)-1]; !strings.Contains(last.Text, "Shanghai rainy") {
				t.Errorf("final answer = %q", last.Text)
			}
		})
	}
}

// assemble accumulates one assistant turn from a stream (what the agent's
// accumulator does, kept minimal here).
func assemble(events []provider.Event) provider.Message {
	m := provider.Message{Role: provider.RoleAssistant}
	idx := map[string]int{}
	for _, e := range events {
		switch e.Type {
		case provider.EventText:
			m.Text += e.Text
		case provider.EventReasoning:
			m.Reasoning += e.Text
		case provider.EventReasoningSignature:
			m.ReasoningSignature += e.Text
		case provider.EventToolUseStart:
			idx[e.ToolCallID] = len(m.ToolCalls)
			m.ToolCalls = append(m.ToolCalls, provider.ToolCall{ID: e.ToolCallID, Name: e.ToolName})
		case provider.EventToolUseArgs:
			m.ToolCalls[idx[e.ToolCallID]].Arguments += e.Text
		}
	}
	return m
}

// The openai preset's endpoint gets requests without DeepSeek's thinking
// switch; DeepSeek's keeps it.
func TestDialectForAdjustsToTheServer(t *testing.T) {
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
		Thinking: provider.Thinking{Enabled: true, Effort: "high"}}
	for base, wantThinking := range map[string]bool{
		"https://api.openai.com/v1": false,
		"https://api.deepseek.com":  true,
	} {
		cfg := provider.DefaultConfig("openai")
		cfg.BaseURL = base
		d, err := connect.DialectFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		body, err := d.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(body), `"thinking"`); got != wantThinking {
			t.Errorf("%s: thinking field sent = %v, want %v", base, got, wantThinking)
		}
	}
}
