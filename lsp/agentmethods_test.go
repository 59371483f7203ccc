package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func TestSessionsAndTools(t *testing.T) {
	s := start(t, providertest.Script{{Text: "one"}, {Text: "two"}}, setupOptions{caps: fullCaps})
	s.initialize(nil)
	var titled struct {
		SessionID string `json:"sessionId"`
	}
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"title": "Refactor"}, &titled); err != nil {
		t.Fatal(err)
	}
	first := s.prompt(map[string]any{"sessionId": titled.SessionID, "prompt": "first"})
	second := s.prompt(map[string]any{"prompt": "Explain the build system of this project in detail please, with examples\nand more"})
	if first.SessionID != titled.SessionID || second.SessionID == titled.SessionID {
		t.Fatalf("session ids: %q, %q (titled %q)", first.SessionID, second.SessionID, titled.SessionID)
	}
	var list struct {
		Sessions []struct {
			SessionID string    `json:"sessionId"`
			Title     string    `json:"title"`
			CreatedAt time.Time `json:"createdAt"`
			UpdatedAt time.Time `json:"updatedAt"`
		} `json:"sessions"`
	}
	if err := s.ed.Call(ctx(t), "agent/sessions", map[string]any{}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 2 {
		t.Fatalf("sessions = %+v", list.Sessions)
	}
	// Newest first: the second session was prompted last.
	b, a := list.Sessions[0], list.Sessions[1]
	if a.Title != "Refactor" || !strings.HasPrefix(b.Title, "Explain the build system") || len([]rune(b.Title)) > 60 ||
		strings.Contains(b.Title, "and more") {
		t.Errorf("titles = %q, %q", a.Title, b.Title)
	}
	if a.CreatedAt.IsZero() || a.UpdatedAt.Before(a.CreatedAt) {
		t.Errorf("times = %+v", a)
	}
	// seq is per session: each session's updates start at 1.
	for _, id := range []string{first.SessionID, second.SessionID} {
		if us := s.updates(id); len(us) == 0 || us[0].Seq != 1 {
			t.Errorf("session %s updates = %+v", id, us)
		}
	}

	var tl struct {
		Tools []struct {
			Name, Description, Source string
		} `json:"tools"`
	}
	if err := s.ed.Call(ctx(t), "agent/tools", map[string]any{}, &tl); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tl.Tools {
		names = append(names, tool.Name)
		if tool.Source != "builtin" || tool.Description == "" {
			t.Errorf("tool = %+v", tool)
		}
	}
	if strings.Join(names, ",") != "read_file,glob,grep,write_file,edit_file,run_bash,todo_write,task" {
		t.Errorf("tools = %v", names)
	}

	// Lua clients encode an empty table as []: it means no params.
	var fromLua struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := s.ed.Call(ctx(t), "agent/tools", []any{}, &fromLua); err != nil || len(fromLua.Tools) != len(tl.Tools) {
		t.Errorf("agent/tools with [] params: %v, %d tools", err, len(fromLua.Tools))
	}

	err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": "nope", "prompt": "x"}, nil)
	if got := errorCode(t, err); got != -32602 {
		t.Errorf("unknown session: code %d", got)
	}
	err = s.ed.Call(ctx(t), "agent/prompt", map[string]any{"prompt": 5}, nil)
	if got := errorCode(t, err); got != -32602 {
		t.Errorf("wrong param type: code %d", got)
	}
}

// Code actions carry agent.ask with a fixed prompt and the range; running
// the command answers through showMessage (short) and logMessage (full).
func TestCodeActionsAndAsk(t *testing.T) {
	long := strings.Repeat("This function adds two numbers. ", 20)
	var asked string
	script := providertest.Script{{Text: long, Check: func(r providertest.Received) error {
		asked = string(r.Body)
		return nil
	}}}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"m.go": "package m\n\nfunc add(a, b int) int { return a + b }\n"}})
	s.initialize(nil)
	path := filepath.Join(s.root, "m.go")
	rng := protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 2, Character: 40}}
	var actions []protocol.CodeAction
	err := s.ed.Call(ctx(t), "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.FileURI(path)}, "range": rng,
		"context": map[string]any{"diagnostics": []map[string]any{{"range": rng, "message": "unused result"}}}}, &actions)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
	}
	if strings.Join(titles, "|") != "Agent: explain this|Agent: fix diagnostics here|Agent: add tests for this" {
		t.Fatalf("actions = %v", titles)
	}
	cmd := actions[0].Command
	if cmd == nil || cmd.Command != "agent.ask" || len(cmd.Arguments) != 1 {
		t.Fatalf("command = %+v", cmd)
	}
	if fix, _ := json.Marshal(actions[1].Command.Arguments); !strings.Contains(string(fix), "unused result") {
		t.Errorf("fix action does not carry the diagnostic: %s", fix)
	}

	if err := s.ed.Call(ctx(t), "workspace/executeCommand", map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(asked, "Explain the selected code.") || !strings.Contains(asked, "func add(a, b int) int { return a + b }") {
		t.Errorf("the model was not asked about the selection: %s", asked)
	}
	shown := s.ed.Notifications("window/showMessage")
	logged := s.ed.Notifications("window/logMessage")
	if len(shown) != 1 || len(logged) != 1 {
		t.Fatalf("showMessage %d, logMessage %d", len(shown), len(logged))
	}
	var show, log protocol.ShowMessageParams
	_ = json.Unmarshal(shown[0].Params, &show)
	_ = json.Unmarshal(logged[0].Params, &log)
	if log.Message != long || len([]rune(show.Message)) > 260 || !strings.HasPrefix(show.Message, "This function adds") {
		t.Errorf("shown %q\nlogged %q", show.Message, log.Message)
	}
}

// CRITICAL actions are refused without a popup; the tool_result says why.
func TestCriticalIsRefusedWithoutAsking(t *testing.T) {
	popups := make(chan protocol.ShowMessageRequestParams, 1)
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_rm", Name: "run_bash", Arguments: `{"command":"rm -rf /"}`}}},
		{Text: "I will not."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", popups)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Clean up."})
	if len(popups) != 0 {
		t.Errorf("the user was asked about a CRITICAL action")
	}
	var res update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			res = u
		}
	}
	if res.Status != "denied" || !strings.Contains(res.Output, "CRITICAL") {
		t.Errorf("tool_result = %+v", res)
	}
}
