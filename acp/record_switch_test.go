package acp_test

import (
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// An ACP session recorded over a model switch (a config option, to the
// other dialect) keeps both exchanges; replayed, the same session gets
// both answers, in order, and no model server is asked. (The binary once
// recorded only the configured model, and sent a switched one to the
// network during a replay.)
func TestRecordingSpansAModelSwitch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	script := providertest.Script{{Text: "answer of the first model"}, {Text: "answer of the switched model"}}
	srv := providertest.NewServer(t, script)
	recorded := switchSession(t, srv, harnessOptions{record: path})
	if want := []string{script[0].Text, script[1].Text}; strings.Join(recorded, "|") != strings.Join(want, "|") {
		t.Fatalf("recorded session answered %q", recorded)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Dialect != anthropic.Name {
		t.Fatalf("the switch did not reach the Messages dialect: %d requests", len(reqs))
	}

	none := providertest.NewServer(t, nil) // any request to it fails the test
	replayed := switchSession(t, none, harnessOptions{replay: path})
	if strings.Join(replayed, "|") != strings.Join(recorded, "|") {
		t.Fatalf("replayed session answered %q, recorded %q", replayed, recorded)
	}
	if reqs := none.Requests(); len(reqs) != 0 {
		t.Errorf("the replay sent %d requests to a model server", len(reqs))
	}
}

// switchSession runs one ACP session on srv: a prompt, a switch to srv's
// Messages endpoint (a preset of the user's), a prompt; it returns the
// two answers.
func switchSession(t *testing.T, srv *providertest.Server, o harnessOptions) []string {
	t.Helper()
	o.model, o.dialect = srv, openai.Name
	o.presets = []control.Preset{{Preset: provider.Preset{ID: "fake-messages", Provider: anthropic.Name,
		Model: "switched-model", BaseURL: srv.AnthropicBaseURL(), APIKeyEnv: "none"}}}
	h := startAgent(t, o)
	defer h.stop()
	h.initialize(false)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if r := h.prompt(ns.SessionId, "first"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("first prompt: %+v", r)
	}
	ups, _ := h.client.snapshot() // sent before the answer
	first := agentText(ups)
	if _, err := h.conn.SetSessionConfigOption(h.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
		SessionId: ns.SessionId, ConfigId: "model", Value: "fake-messages"}}); err != nil {
		t.Fatalf("set model: %v", err)
	}
	if r := h.prompt(ns.SessionId, "second"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt: %+v", r)
	}
	ups, _ = h.client.snapshot()
	return []string{first, strings.TrimPrefix(agentText(ups), first)}
}
