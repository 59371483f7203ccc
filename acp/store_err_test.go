package acp_test

import (
	"errors"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

// When sessions cannot be saved the client is told, in initialize's
// _meta and as each new session's first message, and is not offered load,
// list or resume.
func TestSessionsNotSavedAreSaid(t *testing.T) {
	h := startAgent(t, harnessOptions{storeErr: errors.New("no state directory")})
	init := h.initialize(true)
	caps := init.AgentCapabilities
	if caps.LoadSession || caps.SessionCapabilities.List != nil || caps.SessionCapabilities.Resume != nil {
		t.Errorf("load, list or resume offered: %+v", caps)
	}
	if m, _ := init.Meta["agent-lsp"].(map[string]any); m == nil || !strings.Contains(m["sessionsNotSaved"].(string), "no state directory") {
		t.Errorf("meta %v", init.Meta)
	}
	if !caps.McpCapabilities.Sse {
		t.Error("SSE servers are accepted but not advertised")
	}
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
		return u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil &&
			strings.Contains(u.AgentMessageChunk.Content.Text.Text, "sessions are not saved (no state directory)")
	}); err != nil {
		t.Errorf("session %s: not told: %v", ns.SessionId, err)
	}
}
