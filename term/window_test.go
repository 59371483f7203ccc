package term

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The banner line says the window the budget follows and where from.
func TestChatBannerTellsTheWindow(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setting int
		want    string
	}{
		{"server", 0, "context window: 16384 tokens (server: "},
		{"setting", 9000, "context window: 9000 tokens (--context-window)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.NewServer(t, nil, providertest.WithSeed(1),
				providertest.WithWindow(providertest.Window{Kind: providertest.WindowOllama, Model: "qwen3-coder", Window: 16384, Max: 262144}))
			cfg := provider.DefaultConfig("openai")
			cfg.APIKeyEnv, cfg.BaseURL, cfg.Model, cfg.ContextWindow = "none", srv.OpenAIBaseURL()+"/v1", "qwen3-coder", tc.setting
			p, closeModel, err := connect.New(cfg, connect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = closeModel() })
			ctl := control.New(control.Options{Model: cfg, Provider: p, Windows: &provider.WindowCache{Client: srv.Client()}})
			t.Cleanup(func() { _ = ctl.Close() })
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			c := &session{ctl: ctl, p: newPrinter(io.Discard, io.Discard, false)}
			if c.sess, err = ctl.NewSession(control.Binding{Workspace: ws, Approver: permission.AutoApprover{}}, ""); err != nil {
				t.Fatal(err)
			}
			if got := c.windowLine(context.Background()); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("banner %q, want %q...", got, tc.want)
			}
		})
	}
}
