package anthropic_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// collect turns one streamed answer into the history entry the agent would
// keep, and returns the final event.
func collect(t *testing.T, events func(func(provider.Event) bool)) (provider.Message, provider.Event) {
	t.Helper()
	msg := provider.Message{Role: provider.RoleAssistant}
	var args []*strings.Builder
	var last provider.Event
	for e := range events {
		switch e.Type {
		case provider.EventText:
			msg.Text += e.Text
		case provider.EventReasoning:
			msg.Reasoning += e.Text
		case provider.EventReasoningSignature:
			msg.ReasoningSignature += e.Text
		case provider.EventToolUseStart:
			msg.ToolCalls = append(msg.ToolCalls, provider.ToolCall{ID: e.ToolCallID, Name: e.ToolName})
			args = append(args, &strings.Builder{})
		case provider.EventToolUseArgs:
			for i, c := range msg.ToolCalls {
				if c.ID == e.ToolCallID {
					args[i].WriteString(e.Text)
				}
			}
		case provider.EventDone, provider.EventFailure:
			last = e
		}
	}
	for i := range msg.ToolCalls {
		msg.ToolCalls[i].Arguments = args[i].String()
	}
	return msg, last
}

// TestAgainstStrictFakeServer runs a three-round tool conversation with
// thinking through the real HTTP machinery against the scripted fake, which
// refuses what the real API refuses (unsigned or altered thinking in a tool
// turn, unanswered tool calls, roles that do not alternate, empty blocks...).
func TestAgainstStrictFakeServer(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}},"required":["location"]}`)
	srv := providertest.NewServer(t, providertest.Script{
		{
			Reasoning: "Two cities: call the tool twice, in parallel.",
			Text:      "Checking both.",
			ToolCalls: []providertest.Call{
				{Name: "get_weather", Arguments: `{"location": "Hangzhou"}`},
				{Name: "get_weather", Arguments: `{"location": "Beijing"}`},
			},
			Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408},
		},
		{
			Reasoning: "Beijing failed; try once more.",
			ToolCalls: []providertest.Call{{Name: "get_weather", Arguments: `{"location": "北京"}`}},
			Usage:     provider.Usage{PromptTokens: 1777, CompletionTokens: 44, CachedTokens: 1536},
		},
		{
			Reasoning: "Both known now.",
			Text:      "Hangzhou: cloudy. Beijing: sunny.",
			Usage:     provider.Usage{PromptTokens: 1972, CompletionTokens: 92, CachedTokens: 1792},
		},
	}, providertest.WithAPIKey("sk-fake"), providertest.WithSeed(7))

	p, err := provider.NewHTTP(provider.HTTPOptions{
		Dialect: anthropic.NewDialect(),
		BaseURL: srv.AnthropicBaseURL(),
		APIKey:  "sk-fake",
		Client:  srv.Client(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	req := provider.Request{
		Model:    anthropic.DefaultModel,
		Thinking: provider.Thinking{Enabled: true, Effort: "low"},
		Tools:    []provider.ToolSpec{{Name: "get_weather", Description: "Weather of a city.", Schema: schema}},
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Text: "You are a weather assistant."},
			{Role: provider.RoleUser, Text: "Weather in Hangzhou and Beijing?"},
		},
	}
	wantUsage := []provider.Usage{
		{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408},
		{PromptTokens: 1777, CompletionTokens: 44, CachedTokens: 1536},
		{PromptTokens: 1972, CompletionTokens: 92, CachedTokens: 1792},
	}
	for round := range 3 {
		msg, last := collect(t, p.Stream(ctx, req))
		if last.Type != provider.EventDone {
			for i, r := range srv.Requests() {
				t.Logf("request %d (turn %d) rejected: %q", i, r.Turn, r.Rejected)
			}
			t.Fatalf("round %d ended with %+v", round, last)
		}
		if last.Usage != wantUsage[round] {
			t.Errorf("round %d usage = %+v, want %+v", round, last.Usage, wantUsage[round])
		}
		if msg.ReasoningSignature == "" {
			t.Errorf("round %d: no signature for the thinking block", round)
		}
		req.Messages = append(req.Messages, msg)
		switch round {
		case 0:
			if len(msg.ToolCalls) != 2 || msg.ToolCalls[0].Arguments != `{"location": "Hangzhou"}` || msg.ToolCalls[1].Arguments != `{"location": "Beijing"}` {
				t.Fatalf("round 0 calls = %+v", msg.ToolCalls)
			}
			req.Messages = append(req.Messages,
				provider.Message{Role: provider.RoleTool, ToolCallID: msg.ToolCalls[0].ID, Text: "Hangzhou: cloudy"},
				provider.Message{Role: provider.RoleTool, ToolCallID: msg.ToolCalls[1].ID, Text: "timeout", IsError: true},
				provider.Message{Role: provider.RoleSystem, Text: "Summary: the user wants two cities' weather."},
			)
		case 1:
			if len(msg.ToolCalls) != 1 || msg.ToolCalls[0].Arguments != `{"location": "北京"}` {
				t.Fatalf("round 1 calls = %+v", msg.ToolCalls)
			}
			req.Messages = append(req.Messages, provider.Message{Role: provider.RoleTool, ToolCallID: msg.ToolCalls[0].ID, Text: "Beijing: sunny"})
		case 2:
			if msg.Text != "Hangzhou: cloudy. Beijing: sunny." || msg.Reasoning != "Both known now." {
				t.Errorf("final answer = %+v", msg)
			}
		}
	}
	for i, r := range srv.Requests() {
		if r.Rejected != "" {
			t.Errorf("request %d rejected: %s", i, r.Rejected)
		}
	}
	if n := srv.Consumed(); n != 3 {
		t.Errorf("%d turns consumed, want 3", n)
	}
}

// TestFakeServerErrorEvent: the fake's in-stream overloaded error reaches the
// caller as the stream's failure with the server's words.
func TestFakeServerErrorEvent(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "partial answer", Fault: &providertest.Fault{ErrorEvent: true, AfterFrames: 4}},
	}, providertest.WithSeed(3))
	p, err := provider.NewHTTP(provider.HTTPOptions{
		Dialect: anthropic.NewDialect(), BaseURL: srv.AnthropicBaseURL(), Client: srv.Client(), MaxAttempts: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, last := collect(t, p.Stream(ctx, provider.Request{
		Model: anthropic.DefaultModel, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
	}))
	if last.Type != provider.EventFailure || last.Err == nil || !strings.Contains(last.Err.Error(), "overloaded_error: Overloaded") {
		t.Errorf("last = %+v", last)
	}
}
