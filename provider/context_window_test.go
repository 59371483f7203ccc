package provider_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func windowServer(t *testing.T, w providertest.Window) *providertest.Server {
	return providertest.NewServer(t, nil, providertest.WithSeed(1), providertest.WithWindow(w))
}

func discover(t *testing.T, cfg provider.Config, client *http.Client) (int, string, error) {
	t.Helper()
	return provider.DiscoverContextWindow(context.Background(), cfg, client)
}

func TestDiscoverContextWindowPerServerKind(t *testing.T) {
	cases := []struct {
		name   string
		w      providertest.Window
		base   func(s *providertest.Server) string
		want   int
		source string
	}{
		{"llama.cpp /v1 base: props n_ctx beats n_ctx_train", providertest.Window{Kind: providertest.WindowLlamaCpp, Model: "qwen3.gguf", Window: 4096, Max: 40960},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 4096, "/props default_generation_settings.n_ctx"},
		{"llama.cpp listing meta.n_ctx: the running window from the model list", providertest.Window{Kind: providertest.WindowLlamaCpp, Model: "qwen3.gguf", Window: 4096, Max: 40960, ModelsNCtx: true},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 4096, "/v1/models meta.n_ctx"},
		{"llama.cpp Messages base", providertest.Window{Kind: providertest.WindowLlamaCpp, Model: "qwen3.gguf", Window: 8192, Max: 40960},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() }, 8192, "/props default_generation_settings.n_ctx"},
		{"ollama num_ctx wins", providertest.Window{Kind: providertest.WindowOllama, Model: "m", Window: 16384, Max: 262144},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 16384, "/api/show parameters num_ctx"},
		{"ollama without num_ctx, loaded: /api/ps", providertest.Window{Kind: providertest.WindowOllama, Model: "m", Max: 262144, Running: 4096},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 4096, "/api/ps context_length"},
		{"ollama without num_ctx, not loaded: the architecture's length", providertest.Window{Kind: providertest.WindowOllama, Model: "m", Max: 262144},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 262144, "/api/show model_info qwen3.context_length"},
		{"vllm max_model_len", providertest.Window{Kind: providertest.WindowVLLM, Model: "m", Window: 32768},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 32768, "/v1/models max_model_len"},
		{"openrouter context_length", providertest.Window{Kind: providertest.WindowOpenRouter, Model: "m", Window: 200000},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/api/v1" }, 200000, "/api/v1/models context_length"},
		{"lmstudio loaded_context_length", providertest.Window{Kind: providertest.WindowLMStudio, Model: "m", Window: 4096, Max: 131072},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 4096, "/api/v0/models loaded_context_length"},
		{"lmstudio not loaded: max_context_length", providertest.Window{Kind: providertest.WindowLMStudio, Model: "m", Max: 131072},
			func(s *providertest.Server) string { return s.OpenAIBaseURL() + "/v1" }, 131072, "/api/v0/models max_context_length"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := windowServer(t, c.w)
			cfg := provider.Config{Provider: "openai", BaseURL: c.base(s), Model: c.w.Model, APIKeyEnv: "none"}
			n, src, err := discover(t, cfg, s.Client())
			if err != nil {
				t.Fatal(err)
			}
			if n != c.want || !strings.HasSuffix(src, c.source) {
				t.Fatalf("window %d from %q, want %d from ...%s", n, src, c.want, c.source)
			}
			if got := len(s.Requests()); got != 0 {
				t.Fatalf("discovery recorded %d model requests", got)
			}
		})
	}
}

func TestDiscoverContextWindowSettingWins(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer srv.Close()
	cfg := provider.Config{Provider: "openai", BaseURL: srv.URL, Model: "m", APIKeyEnv: "none", ContextWindow: 12000}
	n, src, err := discover(t, cfg, srv.Client())
	if err != nil || n != 12000 || src != provider.WindowSourceSetting {
		t.Fatalf("got %d %q %v, want the setting", n, src, err)
	}
	if asked.Load() != 0 {
		t.Fatalf("the server was asked %d times despite the setting", asked.Load())
	}
}

func TestDiscoverContextWindowFailures(t *testing.T) {
	t.Run("garbage", func(t *testing.T) {
		s := windowServer(t, providertest.Window{Kind: providertest.WindowGarbage, Model: "m"})
		_, _, err := discover(t, provider.Config{Provider: "openai", BaseURL: s.OpenAIBaseURL() + "/v1", Model: "m", APIKeyEnv: "none"}, s.Client())
		if err == nil {
			t.Fatal("a garbage answer gave a window")
		}
	})
	t.Run("no discovery endpoints", func(t *testing.T) {
		s := providertest.NewServer(t, nil, providertest.WithSeed(1)) // DeepSeek-like: 404 everywhere
		_, _, err := discover(t, provider.Config{Provider: "openai", BaseURL: s.OpenAIBaseURL(), Model: "m", APIKeyEnv: "none"}, s.Client())
		if err == nil {
			t.Fatal("404s gave a window")
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		base := srv.URL
		srv.Close()
		_, _, err := discover(t, provider.Config{Provider: "openai", BaseURL: base, Model: "m", APIKeyEnv: "none"}, nil)
		if err == nil {
			t.Fatal("a closed port gave a window")
		}
	})
}

// The key goes with every probe, to the base URL's host only, in the
// dialect's header.
func TestDiscoverContextWindowSendsKeyToBaseHost(t *testing.T) {
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"data":[{"id":"m","max_model_len":9000}]}`))
	}))
	defer srv.Close()
	t.Setenv("WINDOW_TEST_KEY", "sk-test")
	cfg := provider.Config{Provider: "openai", BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "WINDOW_TEST_KEY"}
	n, _, err := discover(t, cfg, srv.Client())
	if err != nil || n != 9000 {
		t.Fatalf("got %d %v", n, err)
	}
	if got := auth.Load(); got != "Bearer sk-test" {
		t.Fatalf("Authorization %q", got)
	}
}

func TestWindowCacheAsksOncePerModel(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = w.Write([]byte(`{"data":[{"id":"m","max_model_len":9000},{"id":"n","max_model_len":5000}]}`))
	}))
	defer srv.Close()
	c := &provider.WindowCache{Client: srv.Client()}
	cfg := provider.Config{Provider: "openai", BaseURL: srv.URL + "/v1", Model: "m", APIKeyEnv: "none"}
	for range 3 {
		if n, _, err := c.Window(context.Background(), cfg); err != nil || n != 9000 {
			t.Fatalf("got %d %v", n, err)
		}
	}
	cfg.Model = "n"
	if n, _, err := c.Window(context.Background(), cfg); err != nil || n != 5000 {
		t.Fatalf("got %d %v", n, err)
	}
	if asked.Load() != 2 {
		t.Fatalf("the server was asked %d times, want once per model", asked.Load())
	}
}

// A redirect to another host is not followed: the key would go along.
func TestDiscoverContextWindowRefusesRedirectElsewhere(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-api-key") != "" || r.Header.Get("Authorization") != "" {
			leaked.Add(1)
		}
		_, _ = w.Write([]byte(`{"data":[{"id":"m","max_model_len":9000}]}`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer srv.Close()
	t.Setenv("WINDOW_TEST_KEY", "sk-test")
	cfg := provider.Config{Provider: "anthropic", BaseURL: srv.URL, Model: "m", APIKeyEnv: "WINDOW_TEST_KEY"}
	if n, _, err := discover(t, cfg, srv.Client()); err == nil {
		t.Fatalf("a redirect elsewhere gave window %d", n)
	}
	if leaked.Load() != 0 {
		t.Fatalf("the key went to another host %d times", leaked.Load())
	}
}
