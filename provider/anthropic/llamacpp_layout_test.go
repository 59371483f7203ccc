package anthropic_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// llamaTurn is the message an agent keeps from one stream, built as
// agent/turn.go builds it (a signature event replaces the one before), plus
// how many signature events came.
type llamaTurn struct {
	msg        provider.Message
	last       provider.Event
	signatures int
}

func collectLlama(t *testing.T, events func(func(provider.Event) bool)) llamaTurn {
	t.Helper()
	var out llamaTurn
	out.msg.Role = provider.RoleAssistant
	args := map[string]*strings.Builder{}
	for e := range events {
		switch e.Type {
		case provider.EventText:
			out.msg.Text += e.Text
		case provider.EventReasoning:
			out.msg.Reasoning += e.Text
		case provider.EventReasoningSignature:
			out.msg.ReasoningSignature = e.Text
			out.signatures++
		case provider.EventToolUseStart:
			out.msg.ToolCalls = append(out.msg.ToolCalls, provider.ToolCall{ID: e.ToolCallID, Name: e.ToolName})
			args[e.ToolCallID] = &strings.Builder{}
		case provider.EventToolUseArgs:
			b, ok := args[e.ToolCallID]
			if !ok {
				t.Fatalf("arguments for unknown call %q", e.ToolCallID)
			}
			b.WriteString(e.Text)
		case provider.EventDone, provider.EventFailure:
			out.last = e
		}
	}
	for i, c := range out.msg.ToolCalls {
		out.msg.ToolCalls[i].Arguments = args[c.ID].String()
	}
	return out
}

func llamaProvider(t *testing.T, baseURL string, client *http.Client) provider.Provider {
	t.Helper()
	p, err := provider.NewHTTP(provider.HTTPOptions{
		Dialect: anthropic.NewDialect(), BaseURL: baseURL, Client: client, MaxAttempts: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLlamaCppLayoutAgainstStrictFake streams a thinking + text + two tool
// calls turn in llama.cpp's layout (blocks 1–3 opened while block 0 is open,
// a late empty signature_delta, tool_use starts without "input", one call
// with no argument fragment at all) through the real decoder over HTTP, then
// replays it: the strict fake refuses a replay whose signature is not the one
// it issued, so the late empty one must not have replaced it.
func TestLlamaCppLayoutAgainstStrictFake(t *testing.T) {
	for _, seed := range []int64{1, 7, 42} {
		srv := providertest.NewServer(t, providertest.Script{
			{
				Reasoning: "Need the weather, and the clock.",
				Text:      "Checking both.",
				ToolCalls: []providertest.Call{
					{Name: "get_weather", Arguments: `{"location": "杭州"}`},
					{Name: "now"},
				},
				Usage: provider.Usage{PromptTokens: 300, CompletionTokens: 40, CachedTokens: 100},
			},
			{Text: "Cloudy, and it is noon.", Usage: provider.Usage{PromptTokens: 400, CompletionTokens: 9}},
		}, providertest.WithSeed(seed), providertest.WithMessagesLayout(providertest.LayoutLlamaCpp))
		p := llamaProvider(t, srv.AnthropicBaseURL(), srv.Client())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req := provider.Request{
			Model:    anthropic.DefaultModel,
			Thinking: provider.Thinking{Enabled: true, Effort: "low"},
			Tools: []provider.ToolSpec{
				{Name: "get_weather", Schema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}}}`)},
				{Name: "now", Schema: json.RawMessage(`{"type":"object","properties":{}}`)},
			},
			Messages: []provider.Message{{Role: provider.RoleUser, Text: "Weather in Hangzhou, and the time?"}},
		}
		got := collectLlama(t, p.Stream(ctx, req))
		if got.last.Type != provider.EventDone || got.last.StopReason != provider.StopToolUse {
			t.Fatalf("seed %d: first turn ended with %+v", seed, got.last)
		}
		m := got.msg
		if m.Text != "Checking both." || m.Reasoning != "Need the weather, and the clock." {
			t.Errorf("seed %d: text %q, reasoning %q", seed, m.Text, m.Reasoning)
		}
		if m.ReasoningSignature == "" || got.signatures != 1 {
			t.Errorf("seed %d: signature %q after %d signature events, want the fake's one and only one event", seed, m.ReasoningSignature, got.signatures)
		}
		if len(m.ToolCalls) != 2 || m.ToolCalls[0].Name != "get_weather" || m.ToolCalls[0].Arguments != `{"location": "杭州"}` ||
			m.ToolCalls[1].Name != "now" || m.ToolCalls[1].Arguments != "" {
			t.Fatalf("seed %d: calls = %+v", seed, m.ToolCalls)
		}
		if got.last.Usage != (provider.Usage{PromptTokens: 300, CompletionTokens: 40, CachedTokens: 100}) {
			t.Errorf("seed %d: usage %+v", seed, got.last.Usage)
		}
		req.Messages = append(req.Messages, m,
			provider.Message{Role: provider.RoleTool, ToolCallID: m.ToolCalls[0].ID, Text: "cloudy"},
			provider.Message{Role: provider.RoleTool, ToolCallID: m.ToolCalls[1].ID, Text: "12:00"},
		)
		final := collectLlama(t, p.Stream(ctx, req))
		cancel()
		if final.last.Type != provider.EventDone || final.msg.Text != "Cloudy, and it is noon." {
			for i, r := range srv.Requests() {
				t.Logf("seed %d request %d rejected: %q", seed, i, r.Rejected)
			}
			t.Fatalf("seed %d: replay turn = %+v, last %+v", seed, final.msg, final.last)
		}
		// The call without argument fragments is replayed as {}, not "".
		var replay struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := srv.Requests()[1].Decode(&replay); err != nil {
			t.Fatal(err)
		}
		if len(replay.Messages) < 2 || !strings.Contains(string(replay.Messages[1].Content), `"name":"now","input":{}`) {
			t.Errorf("seed %d: replayed assistant content = %s", seed, replay.Messages[1].Content)
		}
	}
}

// llamaCppBody is a stream as llama.cpp itself sends it: no real signature at
// all, only the late empty signature_delta.
const llamaCppBody = `event: message_start
data: {"type":"message_start","message":{"id":"msg_l","type":"message","role":"assistant","content":[],"model":"qwen3","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":0}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Look it "}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"up."}}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"On it."}}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"call_abc","name":"get_weather"}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"location\":"}}

event: content_block_delta
data: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":" \"Paris\"}"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":""}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":21}}

event: message_stop
data: {"type":"message_stop"}

`

// TestLlamaCppUnsignedThinking: with only the empty signature, the turn keeps
// its reasoning unsigned, and its replay carries no thinking block (an
// unsigned or empty-signed one is invalid) but the text and the call.
func TestLlamaCppUnsignedThinking(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(llamaCppBody))
	}))
	t.Cleanup(hs.Close)
	p := llamaProvider(t, hs.URL, hs.Client())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := provider.Request{Model: "qwen3", Messages: []provider.Message{{Role: provider.RoleUser, Text: "Paris?"}}}
	got := collectLlama(t, p.Stream(ctx, req))
	if got.last.Type != provider.EventDone || got.last.StopReason != provider.StopToolUse {
		t.Fatalf("ended with %+v", got.last)
	}
	m := got.msg
	if m.Reasoning != "Look it up." || m.Text != "On it." || m.ReasoningSignature != "" || got.signatures != 0 {
		t.Errorf("turn = %+v after %d signature events", m, got.signatures)
	}
	if len(m.ToolCalls) != 1 || m.ToolCalls[0].ID != "call_abc" || m.ToolCalls[0].Arguments != `{"location": "Paris"}` {
		t.Fatalf("calls = %+v", m.ToolCalls)
	}
	req.Messages = append(req.Messages, m, provider.Message{Role: provider.RoleTool, ToolCallID: "call_abc", Text: "sunny"})
	body, err := anthropic.NewDialect().Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(body); strings.Contains(s, `"type":"thinking"`) || strings.Contains(s, `"signature"`) {
		t.Errorf("replay carries an unsigned thinking block: %s", s)
	}
	if s := string(body); !strings.Contains(s, `"text":"On it."`) || !strings.Contains(s, `"input":{"location":"Paris"}`) {
		t.Errorf("replay lost the text or the call: %s", s)
	}
}
