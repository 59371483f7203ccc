package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A model that asks for more tool calls than one answer may hold: the
// prompt ends as max_turn_requests, none of the calls runs, and the
// client's last message line says which limit it met.
func TestToolCallLimitIsToldToTheClient(t *testing.T) {
	calls := make([]providertest.Call, 200)
	for i := range calls {
		calls[i] = providertest.Call{Name: "glob", Arguments: `{"pattern":"*"}`}
	}
	h := startAgent(t, harnessOptions{script: providertest.Script{{Text: "Globbing.", ToolCalls: calls}}})
	h.initialize(true)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if r := h.prompt(ns.SessionId, "glob it all"); r.StopReason != sdk.StopReasonMaxTurnRequests {
		t.Fatalf("stop %q, want max_turn_requests", r.StopReason)
	}
	ups, _ := h.client.snapshot()
	want := "[stopped: [the answer asked for more than 128 tool calls, the limit for one answer: none was run]]"
	if got := agentText(ups); !strings.HasSuffix(got, want) {
		t.Errorf("agent text %q, want it to end with %q", got, want)
	}
	for _, u := range ups {
		if u.Update.ToolCall != nil {
			t.Fatalf("a call of the flood was shown as running: %+v", u.Update.ToolCall)
		}
	}
}
