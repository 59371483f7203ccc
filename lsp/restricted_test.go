package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// restrictedOptions are the initializationOptions of an untrusted folder.
var restrictedOptions = map[string]any{"workspaceTrust": "restricted"}

// hostileCalls is one turn asking for an edit, a new file and a command
// (each would leave a trace in the workspace), then an answer.
func hostileCalls(root, tag string) providertest.Script {
	edit := fmt.Sprintf(`{"path":"main.go","old_string":"package main","new_string":"package owned%s"}`, tag)
	return providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_edit" + tag, Name: "edit_file", Arguments: edit},
			{ID: "call_write" + tag, Name: "write_file", Arguments: writeArgs("written"+tag+".txt", "owned")},
			{ID: "call_bash" + tag, Name: "run_bash", Arguments: bashArgs("touch " + filepath.Join(root, "ran"+tag))},
		}},
		{Text: "Done."},
	}
}

// A restricted daemon is a read-only agent whatever the editor or the
// model asks: even with autoApprove (--yes), in auto-edit mode switched to
// through agent/setMode and through /mode, edit_file, write_file and
// run_bash are refused without a question, never offered to the model,
// and nothing in the workspace changes; read_file still works.
func TestRestrictedModeRefusesEditsAndCommands(t *testing.T) {
	asked := make(chan lsptest.ApproveParams, 8)
	s := start(t, nil, setupOptions{caps: approveCaps, autoApprove: true,
		files:    map[string]string{"main.go": "package main\n"},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "restricted mode"), Approve: choose("allow_session", asked)}})
	script := hostileCalls(s.root, "1")
	script = append(script, hostileCalls(s.root, "2")...)
	script = append(script, hostileCalls(s.root, "3")...)
	s.model.Append(script...)
	res := s.initialize(restrictedOptions)
	if !strings.Contains(string(res), `"workspaceTrust":"restricted"`) {
		t.Errorf("initialize result does not say restricted: %s", res)
	}

	first := s.prompt(map[string]any{"prompt": "Fix main.go and run the tests."})
	if first.StopReason != "end_turn" {
		t.Fatalf("prompt 1 = %+v", first)
	}
	var mode struct {
		Mode string `json:"mode"`
	}
	if err := s.ed.Call(ctx(t), "agent/setMode", map[string]any{"sessionId": first.SessionID, "mode": "auto-edit"}, &mode); err != nil {
		t.Fatalf("agent/setMode: %v", err)
	}
	if r := s.prompt(map[string]any{"sessionId": first.SessionID, "prompt": "Again, in auto-edit."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt 2 = %+v", r)
	}
	if r := s.prompt(map[string]any{"sessionId": first.SessionID, "prompt": "/mode auto-edit"}); r.Error != "" {
		t.Fatalf("/mode = %+v", r)
	}
	if r := s.prompt(map[string]any{"sessionId": first.SessionID, "prompt": "And once more."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt 3 = %+v", r)
	}

	results := 0
	for _, u := range s.updates(first.SessionID) {
		if u.Kind != "tool_result" {
			continue
		}
		results++
		if u.Status != "failed" || !strings.Contains(u.Output, "unknown tool") {
			t.Errorf("%s (%s) was not refused: %s %q", u.ToolCallID, u.Name, u.Status, u.Output)
		}
	}
	if results != 9 {
		t.Errorf("%d tool results, want 9", results)
	}
	if data, err := os.ReadFile(filepath.Join(s.root, "main.go")); err != nil || string(data) != "package main\n" {
		t.Errorf("main.go = %q, %v", data, err)
	}
	for _, tag := range []string{"1", "2", "3"} {
		for _, name := range []string{"written" + tag + ".txt", "ran" + tag} {
			if _, err := os.Stat(filepath.Join(s.root, name)); !os.IsNotExist(err) {
				t.Errorf("%s exists (%v): restricted mode let it through", name, err)
			}
		}
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d workspace edits were applied", n)
	}
	select {
	case p := <-asked:
		t.Errorf("the user was asked about %s: restricted mode refuses without asking", p.Tool)
	default:
	}
	for i, req := range s.model.Requests() {
		var body struct {
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
			Messages []struct {
				Role    string `json:"role"`
				Content any    `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatal(err)
		}
		var offered []string
		for _, tl := range body.Tools {
			offered = append(offered, tl.Function.Name)
			if tl.Function.Name == "write_file" || tl.Function.Name == "edit_file" || tl.Function.Name == "run_bash" {
				t.Errorf("request %d offers %s", i, tl.Function.Name)
			}
		}
		if !strings.Contains(strings.Join(offered, ","), "read_file") {
			t.Errorf("request %d offers %v: the read-only tools are gone too", i, offered)
		}
		if len(body.Messages) == 0 || !strings.Contains(fmt.Sprint(body.Messages[0].Content), "restricted mode") {
			t.Errorf("request %d: the system prompt does not tell the model it is restricted", i)
		}
	}
}

// A restricted daemon does not load the workspace's .mcp.json: its entry
// is not started, not asked about (no popup) and not listed, while the
// user's own server (initializationOptions.mcpServers) still runs.
func TestRestrictedModeLoadsNoWorkspaceMCP(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "workspace-mcp-ran")
	mcpJSON, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"workspace-thief": map[string]any{"command": "sh", "args": []string{"-c", "touch " + marker + "; sleep 30"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := start(t, nil, setupOptions{caps: fullCaps, files: map[string]string{".mcp.json": string(mcpJSON)},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "restricted mode")}})
	opts := map[string]any{"workspaceTrust": "restricted", "mcpServers": map[string]any{"mine": demoServerConfig(t, "restricted-user-mcp")}}
	s.initialize(opts)
	st := s.waitMCP(func(st mcpStatusResult) bool {
		return len(st.Servers) > 0 && st.Servers[0].State == "ready"
	})
	for _, srv := range st.Servers {
		if srv.Name != "mine" {
			t.Errorf("restricted mode lists the workspace's server %+v", srv)
		}
	}
	if len(st.ConfigErrors) != 0 {
		t.Errorf("config errors: %q", st.ConfigErrors)
	}
	// A prompt round trip: a popup sent after initialized would be in by now.
	s.model.Append(providertest.Turn{Text: "ok"})
	if r := s.prompt(map[string]any{"prompt": "hi"}); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Errorf("the workspace's MCP server ran (%v)", err)
	}
}

// A misspelt trust value fails initialize rather than giving full powers.
func TestWorkspaceTrustMustBeKnown(t *testing.T) {
	s := start(t, nil, setupOptions{caps: fullCaps})
	if _, err := s.ed.Initialize(context.Background(), s.root, s.caps, map[string]any{"workspaceTrust": "restricetd"}); err == nil ||
		!strings.Contains(err.Error(), "workspaceTrust") {
		t.Errorf("initialize with a misspelt workspaceTrust: %v", err)
	}
}
