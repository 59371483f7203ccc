package acp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The max-usd config option caps the session: at $2.30, after gpt-4.1's
// first call of a million input tokens ($2), the next request is not sent;
// the turn ends with max_turn_requests and the notice as its last line,
// usage_update's _meta carried the spend against the cap; raising the
// option and sending /budget goes on with the same turn.
func TestMaxUSDConfigOptionStopsAndBudgetContinues(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: d, modelName: "gpt-4.1", script: providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "c_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
					Usage: provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 10}},
				{Text: "Done reading.", Usage: provider.Usage{PromptTokens: 1_000_050, CompletionTokens: 5}},
			}})
			h.initialize(false)
			cwd := t.TempDir()
			if err := os.WriteFile(filepath.Join(cwd, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			set := func(value string) sdk.SetSessionConfigOptionResponse {
				t.Helper()
				r, err := h.conn.SetSessionConfigOption(h.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
					SessionId: ns.SessionId, ConfigId: "max-usd", Value: sdk.SessionConfigValueId(value)}})
				if err != nil {
					t.Fatalf("max-usd %s: %v", value, err)
				}
				return r
			}
			if got := optionValue(set("2.3").ConfigOptions, "max-usd"); got != "2.3" {
				t.Fatalf("max-usd's current value is %q, want 2.3", got)
			}

			r := h.prompt(ns.SessionId, "Read a.txt.")
			if r.StopReason != sdk.StopReasonMaxTurnRequests {
				t.Fatalf("stop %q, want max_turn_requests", r.StopReason)
			}
			if n := len(h.model.Requests()); n != 1 {
				t.Fatalf("%d model requests, want 1", n)
			}
			// The SDK may hand the client a notification after the prompt's
			// answer: wait for each line rather than read what came so far.
			waitText(t, h, "[spend: 87% of the session's cap spent")
			waitText(t, h, "the session's cap is $2.30 ($2.0001 spent)")
			up, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool { return u.UsageUpdate != nil && u.UsageUpdate.Meta != nil })
			if err != nil {
				t.Fatal(err)
			}
			spend, _ := up.UsageUpdate.Meta["agentLsp"].(map[string]any)["spend"].(map[string]any)
			if spend["sessionCapUsd"] != 2.3 {
				t.Errorf("usage_update _meta = %v, want the session's cap", up.UsageUpdate.Meta)
			}

			set("10")
			r = h.prompt(ns.SessionId, "/budget")
			reqs := h.model.Requests()
			if r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("after /budget: stop %q", r.StopReason)
			}
			waitText(t, h, "Done reading.")
			if len(reqs) != 2 || reqs[1].Rejected != "" || bytes.Contains(reqs[1].Body, []byte("budget")) {
				t.Fatalf("%d requests; the continued one must be the refused one, with no new message", len(reqs))
			}
		})
	}
}

func optionValue(opts []sdk.SessionConfigOption, id string) string {
	for _, o := range opts {
		if o.Select != nil && string(o.Select.Id) == id {
			return string(o.Select.CurrentValue)
		}
	}
	return ""
}

// waitText waits until the agent's text so far holds want: the SDK may
// hand the client a notification after the prompt's answer, and a text
// streams in pieces.
func waitText(t *testing.T, h *harness, want string) {
	t.Helper()
	ctx := h.ctx()
	for {
		ups, changed := h.client.snapshot()
		if strings.Contains(agentText(ups), want) {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the agent's text never held %q:\n%s", want, agentText(ups))
		}
	}
}
