package acp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// session/delete (which the Go SDK does not route: sdk_delete.go) removes
// a session, open or stored: it is no longer listed or loaded; the
// capability is offered, and an unknown id is -32002.
func TestDeleteSession(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	cwd := t.TempDir()
	h := startAgent(t, harnessOptions{model: srv, raw: true})
	init := h.call(1, "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`)
	if init.Error != nil || !strings.Contains(string(init.Result), `"sessionCapabilities":{"delete":{}`) {
		t.Fatalf("initialize: %+v %s", init.Error, init.Result)
	}
	var ids []string
	for i, p := range []string{"keep me", "delete me"} {
		r := h.call(10+i, "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, cwd))
		var ns sdk.NewSessionResponse
		if r.Error != nil || json.Unmarshal(r.Result, &ns) != nil {
			t.Fatalf("session/new: %+v", r.Error)
		}
		if r := h.call(20+i, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":%q}]}`, ns.SessionId, p)); r.Error != nil {
			t.Fatalf("prompt: %+v", r.Error)
		}
		ids = append(ids, string(ns.SessionId))
	}
	if r := h.call(30, "session/delete", fmt.Sprintf(`{"sessionId":%q}`, ids[1])); r.Error != nil {
		t.Fatalf("session/delete: %+v", r.Error)
	}
	r := h.call(31, "session/list", fmt.Sprintf(`{"cwd":%q}`, cwd))
	if r.Error != nil || strings.Contains(string(r.Result), ids[1]) || !strings.Contains(string(r.Result), ids[0]) {
		t.Errorf("session/list after the delete: %+v %s", r.Error, r.Result)
	}
	wantCode(t, "load a deleted session", h.call(32, "session/load", fmt.Sprintf(`{"sessionId":%q,"cwd":%q,"mcpServers":[]}`, ids[1], cwd)), -32002)
	wantCode(t, "delete an unknown session", h.call(33, "session/delete", `{"sessionId":"nope"}`), -32002)
	wantCode(t, "delete without an id", h.call(34, "session/delete", `{}`), -32602)
}
