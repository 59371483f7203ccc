package providertest

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
)

// TestContextLimitThroughClient runs our own client against the window: the
// refusal reaches the caller as an error ContextOverflowOf reads (after the
// client's excerpting of the body), and the usage of a served call is the
// count the window is enforced with, so a client calibrating on usage
// measures what the server measures.
func TestContextLimitThroughClient(t *testing.T) {
	const limit, maxTokens = 400, 50
	cases := []struct {
		name    string
		kind    LimitKind
		dialect provider.Dialect
		base    func(*Server) string
		extra   int
	}{
		{"openai-vllm", LimitVLLM, openai.NewDialect(), (*Server).OpenAIBaseURL, maxTokens},
		{"openai-llamacpp", LimitLlamaCpp, openai.NewDialect(), (*Server).OpenAIBaseURL, 0},
		{"anthropic", LimitAnthropic, anthropic.NewDialect(), (*Server).AnthropicBaseURL, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t, Script{{Text: "ok"}}, WithSeed(1), WithContextLimit(limit, tc.kind))
			p, err := provider.NewHTTP(provider.HTTPOptions{Dialect: tc.dialect, BaseURL: tc.base(s), APIKey: testKey, Client: s.Client()})
			if err != nil {
				t.Fatal(err)
			}
			call := func(text string) provider.Event {
				req := provider.Request{Model: "m", MaxTokens: maxTokens, Messages: []provider.Message{{Role: provider.RoleUser, Text: text}}}
				var last provider.Event
				for e := range p.Stream(t.Context(), req) {
					last = e
				}
				return last
			}
			failed := call(strings.Repeat("many words ", 300))
			if failed.Type != provider.EventFailure {
				t.Fatalf("overlong request ended with %v, want a failure", failed.Type)
			}
			o, ok := provider.ContextOverflowOf(failed.Err)
			rt := s.RequestTokens()
			if !ok || o.Limit != limit || o.Requested != rt[0]+tc.extra {
				t.Fatalf("ContextOverflowOf(%v) = %+v, %v; want Limit %d Requested %d", failed.Err, o, ok, limit, rt[0]+tc.extra)
			}
			done := call("hi")
			if done.Type != provider.EventDone {
				t.Fatalf("small request ended with %v (%v), want done", done.Type, done.Err)
			}
			rt = s.RequestTokens()
			if len(rt) != 2 || done.Usage.PromptTokens != rt[1] || rt[1] == 0 {
				t.Errorf("usage prompt tokens %d, request tokens %v: want the fake's count", done.Usage.PromptTokens, rt)
			}
			if s.Overflows() != 1 || s.Consumed() != 1 {
				t.Errorf("overflows %d consumed %d, want 1, 1", s.Overflows(), s.Consumed())
			}
		})
	}
}
