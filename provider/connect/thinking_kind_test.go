package connect_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// kindProvider connects to srv with the server kind set, thinking off.
func kindProvider(t *testing.T, dialect, kind string, srv *providertest.Server) provider.Provider {
	t.Helper()
	cfg := provider.DefaultConfig(dialect)
	cfg.BaseURL = srv.OpenAIBaseURL()
	if dialect == "anthropic" {
		cfg.BaseURL = srv.AnthropicBaseURL()
	}
	cfg.APIKeyEnv, cfg.ServerKind, cfg.Thinking = "none", kind, false
	p, closeFn, err := connect.New(cfg, connect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeFn() })
	return p
}

func streamOnce(p provider.Provider) error {
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
		Thinking: provider.Thinking{}}
	for e := range p.Stream(context.Background(), req) {
		if e.Type == provider.EventFailure {
			return e.Err
		}
	}
	return nil
}

// Over HTTP, a server of each kind accepts the request built for it and
// reads thinking off from the body it received.
func TestThinkingOffReachesEachServerKind(t *testing.T) {
	for _, c := range []struct{ dialect, kind string }{
		{"openai", "deepseek"}, {"openai", "openrouter"}, {"openai", "llamacpp"},
		{"openai", "vllm"}, {"openai", "ollama"}, {"openai", "lmstudio"},
		{"anthropic", "anthropic"}, {"anthropic", "deepseek"}, {"anthropic", "llamacpp"},
	} {
		t.Run(c.dialect+"/"+c.kind, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{{Text: "ok"}}, providertest.WithServerKind(c.kind))
			if err := streamOnce(kindProvider(t, c.dialect, c.kind, srv)); err != nil {
				t.Fatalf("refused: %v", err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			read, err := providertest.ReadThinking(c.dialect, c.kind, reqs[0].Body)
			if err != nil || !read.Off {
				t.Errorf("server read %+v, %v from %s; want thinking off", read, err, reqs[0].Body)
			}
		})
	}
}

// A strict OpenAI server refuses DeepSeek's switch with a 400; the openai
// kind sends none and is served.
func TestOpenAIServerRefusesDeepSeekSwitch(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "ok"}}, providertest.WithServerKind("openai"))
	err := streamOnce(kindProvider(t, "openai", "deepseek", srv))
	if err == nil || !strings.Contains(err.Error(), "Unrecognized request argument supplied: thinking") {
		t.Fatalf("deepseek switch to OpenAI: %v, want the 400 naming thinking", err)
	}
	if err := streamOnce(kindProvider(t, "openai", "openai", srv)); err != nil {
		t.Fatalf("openai kind refused: %v", err)
	}
}
