package control_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// windowSession is a session on srv's model cfg, with discovery.
func windowSession(t *testing.T, srv *providertest.Server, cfg provider.Config) (*control.Controller, *control.Session) {
	t.Helper()
	client, err := newClient(srv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctl := control.New(control.Options{Model: cfg, Provider: client, Windows: &provider.WindowCache{Client: srv.Client()},
		Connect: func(c provider.Config) (provider.Provider, func() error, error) {
			p, err := newClient(srv, c)
			return p, nil, err
		}})
	t.Cleanup(func() { _ = ctl.Close() })
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ctl.NewSession(control.Binding{Workspace: ws, Approver: permission.AutoApprover{}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return ctl, s
}

func waitWindow(t *testing.T, s *control.Session) control.WindowInfo {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w := s.WaitContextWindow(ctx)
	if w.Source == control.WindowProbing {
		t.Fatal("the probe did not finish")
	}
	return w
}

func localConfig(srv *providertest.Server, model string) provider.Config {
	cfg := provider.DefaultConfig(openai.Name)
	cfg.BaseURL, cfg.APIKeyEnv, cfg.Model = srv.OpenAIBaseURL()+"/v1", "none", model
	return cfg
}

func TestContextWindowFromServer(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(1),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowLlamaCpp, Model: "qwen3.gguf", Window: 4096, Max: 40960}))
	_, s := windowSession(t, srv, localConfig(srv, "qwen3.gguf"))
	w := waitWindow(t, s)
	if w.Tokens != 4096 || !strings.HasPrefix(w.Source, "server: ") || !strings.Contains(w.Source, "/props") {
		t.Fatalf("window %+v, want 4096 from the server's /props", w)
	}
	if b := s.Agent().Budget(); b >= 4096 || b < 2048 {
		t.Fatalf("budget %d does not follow a 4096-token window", b)
	}
}

func TestContextWindowSettingWins(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(1),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowVLLM, Model: "m", Window: 4096}))
	cfg := localConfig(srv, "m")
	cfg.ContextWindow = 20000
	_, s := windowSession(t, srv, cfg)
	if w := waitWindow(t, s); w != (control.WindowInfo{Tokens: 20000, Source: control.WindowFromSetting}) {
		t.Fatalf("window %+v, want the setting", w)
	}
	if b := s.Agent().Budget(); b <= 4096 || b >= 20000 {
		t.Fatalf("budget %d does not follow the 20000-token setting", b)
	}
}

func TestContextWindowDefaultWhenServerSaysNothing(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(1),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowGarbage, Model: "m"}))
	_, s := windowSession(t, srv, localConfig(srv, "m"))
	w := waitWindow(t, s)
	if w.Source != control.WindowFromDefault || w.Tokens != 128_000 {
		t.Fatalf("window %+v, want the default", w)
	}
}

func TestContextWindowTableAndSwitch(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(1),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowOllama, Model: "qwen3-coder", Window: 8192, Max: 262144}))
	cfg := localConfig(srv, "deepseek-flash")
	cfg.ContextWindow = 0
	_, s := windowSession(t, srv, cfg)
	if w := waitWindow(t, s); w.Source != control.WindowFromTable {
		t.Fatalf("window %+v, want the table's", w)
	}
	if _, err := s.SetModel(control.ModelChoice{Model: "qwen3-coder"}); err != nil {
		t.Fatal(err)
	}
	if w := waitWindow(t, s); w.Tokens != 8192 || !strings.Contains(w.Source, "num_ctx") {
		t.Fatalf("after the switch: window %+v, want Ollama's num_ctx 8192", w)
	}
}
