package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// usage_update leaves the cost out for a model the price table does not
// know (a client shows none, not $0 and not deepseek-flash's price), and
// says $0 for the same model when its server is free.
func TestUsageUpdateCost(t *testing.T) {
	for _, c := range []struct {
		name string
		free bool
	}{{"unknown model", false}, {"free server", true}} {
		t.Run(c.name, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: openai.Name, modelName: "qwen3-local", free: c.free,
				script: providertest.Script{{Text: "done", Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 34}}}})
			h.initialize(false)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			if r := h.prompt(ns.SessionId, "hi"); r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("stop %q", r.StopReason)
			}
			// The SDK may hand the client a notification after the prompt's
			// answer: wait for it rather than read what came so far.
			up, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
				return u.UsageUpdate != nil && u.UsageUpdate.Used == 1234
			})
			if err != nil {
				t.Fatal(err)
			}
			usage := up.UsageUpdate
			switch {
			case !c.free && usage.Cost != nil:
				t.Errorf("unknown model's usage_update cost = %+v, want none", *usage.Cost)
			case c.free && (usage.Cost == nil || usage.Cost.Amount != 0 || usage.Cost.Currency != "USD"):
				t.Errorf("free server's usage_update cost = %+v, want $0", usage.Cost)
			}
		})
	}
}

// usage_update's size is the window the controller uses for the session
// (here the user's setting for a model the tables do not know), not a
// default of the ACP front end's own.
func TestUsageUpdateSizeIsTheSessionsWindow(t *testing.T) {
	h := startAgent(t, harnessOptions{dialect: openai.Name, modelName: "qwen3-local", contextWindow: 4096,
		script: providertest.Script{{Text: "done", Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 34}}}})
	h.initialize(false)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.prompt(ns.SessionId, "hi"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	up, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool { return u.UsageUpdate != nil })
	if err != nil {
		t.Fatal(err)
	}
	if got := up.UsageUpdate.Size; got != 4096 {
		t.Errorf("usage_update size = %d, want the session's 4096", got)
	}
}
