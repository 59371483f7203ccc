package lsp_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// daemonView is what a client can see of the daemon's configuration right
// after initialize: the warnings it was sent, the MCP status, the model
// presets and a new session's mode and model.
type daemonView struct {
	Warnings []string
	MCP      mcpStatusResult
	Models   string // the fake model's address replaced by <model>
	Session  string
}

func viewAfterInitialize(t *testing.T, options any) daemonView {
	t.Helper()
	s := start(t, nil, setupOptions{caps: fullCaps})
	if _, err := s.ed.Initialize(ctx(t), s.root, fullCaps, options); err != nil {
		t.Fatalf("initialize with %s: %v", options, err)
	}
	var v daemonView
	// Requests are answered in order after the initialized notification's
	// warnings were sent: by the answer they are all here.
	s.call("agent/mcpStatus", map[string]any{}, &v.MCP)
	var models json.RawMessage
	s.call("agent/models", map[string]any{}, &models)
	local := strings.NewReplacer(s.model.OpenAIBaseURL(), "<model>")
	v.Models = local.Replace(string(models))
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	s.call("agent/newSession", map[string]any{}, &ns)
	var st map[string]any
	s.call("agent/session", map[string]any{"sessionId": ns.SessionID}, &st)
	delete(st, "sessionId")
	session, _ := json.Marshal(st)
	v.Session = local.Replace(string(session))
	for _, n := range s.ed.Notifications("window/showMessage") {
		v.Warnings = append(v.Warnings, string(n.Params))
	}
	return v
}

// Lua cannot write an empty object: Neovim's setup({}) sends
// initializationOptions [] and mcp_servers = {} sends "mcpServers": [].
// Each empty array where an object is expected (at any depth) reads as
// that empty object: no warning, and the daemon is configured exactly as
// with no options at all.
func TestEmptyArrayOptionsAreEmptyObjects(t *testing.T) {
	want := viewAfterInitialize(t, nil)
	if len(want.MCP.ConfigErrors) != 0 || len(want.MCP.Servers) != 0 || !strings.Contains(want.Session, `"mode":"default"`) ||
		!strings.Contains(want.Models, "<model>") {
		t.Fatalf("the defaults are not what this test assumes: %+v", want)
	}
	for _, options := range []string{
		`[]`, `[ ]`, `{}`, `null`,
		`{"mcpServers": []}`, `{"mcpServers": {}}`, `{"mcpServers": null}`,
		`{"sandbox": []}`, `{"models": [], "mcpServers": [], "sandbox": [], "mode": "default"}`,
	} {
		t.Run(options, func(t *testing.T) {
			got := viewAfterInitialize(t, json.RawMessage(options))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("with initializationOptions %s:\n got %+v\nwant %+v", options, got, want)
			}
		})
	}
}

// The rule covers empty arrays only: any other array where an object is
// expected is still wrong, and said so.
func TestNonEmptyArrayOptionsAreStillWrong(t *testing.T) {
	s := start(t, nil, setupOptions{caps: fullCaps})
	if _, err := s.ed.Initialize(ctx(t), s.root, fullCaps, json.RawMessage(`{"sandbox": ["read-only"]}`)); errorCode(t, err) != jsonrpc2.InvalidParams {
		t.Fatalf("sandbox [\"read-only\"]: %v, want -32602", err)
	}
	s2 := start(t, nil, setupOptions{caps: fullCaps})
	if _, err := s2.ed.Initialize(ctx(t), s2.root, fullCaps, json.RawMessage(`{"mcpServers": [{"command": "x"}]}`)); err != nil {
		t.Fatal(err)
	}
	var st mcpStatusResult
	s2.call("agent/mcpStatus", map[string]any{}, &st)
	if len(st.ConfigErrors) != 1 || !strings.Contains(st.ConfigErrors[0], "initializationOptions") {
		t.Fatalf("configErrors = %q, want the array named", st.ConfigErrors)
	}
}

// Every agent/* method reads its params with the same rule: an empty
// array for the params, or for an object inside them.
func TestEmptyArrayParams(t *testing.T) {
	s := start(t, providertest.Script{{Text: "ok"}}, setupOptions{caps: fullCaps})
	s.initialize(nil)
	for _, m := range []string{"agent/sessions", "agent/tools", "agent/models", "agent/commands", "agent/mcpStatus", "agent/newSession"} {
		if err := s.ed.Call(ctx(t), m, json.RawMessage(`[]`), nil); err != nil {
			t.Errorf("%s with []: %v", m, err)
		}
	}
	// An object inside the params: agent/prompt's context.
	var r promptResult
	if err := s.ed.Call(ctx(t), "agent/prompt", json.RawMessage(`{"prompt":"hi","context":[]}`), &r); err != nil || r.Text != "ok" {
		t.Errorf("agent/prompt with context []: %+v, %v", r, err)
	}
	// executeCommand's nested arguments: agent.cancel with [] as its
	// argument object cancels nothing, without an error.
	if err := s.ed.Call(ctx(t), "workspace/executeCommand", json.RawMessage(`{"command":"agent.cancel","arguments":[[]]}`), nil); err != nil {
		t.Errorf("agent.cancel with [[]]: %v", err)
	}
}
