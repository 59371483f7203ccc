package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// vscode-jsonrpc, as VS Code uses it: a prompt edits a.go (open) and b.go
// and creates c.go; agent/rewind restores all three in one
// workspace/applyEdit; the client's undo of that edit (the inverse it
// recorded) brings the agent's versions back; the next prompt's request,
// which the strict fake accepts, no longer carries the rewound one.
func TestNodeClientRewind(t *testing.T) {
	client := requireNodeClient(t)
	const (
		a, aAgent = "package a\n\nfunc A() int { return 1 }\n", "package a\n\nfunc A() int { return 2 }\n"
		b, bAgent = "package b\n", "package b\n\n// B is new.\nfunc B() {}\n"
		c         = "package c\n"
	)
	model := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_a", Name: "edit_file", Arguments: `{"path":"a.go","old_string":"return 1","new_string":"return 2"}`},
			{ID: "call_b", Name: "write_file", Arguments: `{"path":"b.go","content":` + strconv.Quote(bAgent) + `}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_c", Name: "write_file", Arguments: `{"path":"c.go","content":` + strconv.Quote(c) + `}`}}},
		{Text: "Changed three files."},
		{Text: "Fresh start."},
	})
	d := newDaemon(t, model, "--yes", "--state-dir", t.TempDir())
	root := workspace(t, map[string]string{"a.go": a, "b.go": b})
	cfg := map[string]any{
		"command": d.args, "root": root, "openFile": "a.go", "files": []string{"a.go", "b.go", "c.go"},
		"prompt": "Change the three files.", "secondPrompt": "Start over.", "secondAnswer": "Fresh start.",
		"originalTexts": map[string]any{"a.go": a, "b.go": b, "c.go": nil},
		"agentTexts":    map[string]any{"a.go": aAgent, "b.go": bAgent, "c.go": c},
		"timeoutMs":     25000,
	}
	var sum struct {
		Rewind json.RawMessage   `json:"rewind"`
		Edits  []json.RawMessage `json:"rewindEdits"`
	}
	client.run(t, "rewind.js", cfg, &sum)
	if len(sum.Edits) != 1 || !strings.Contains(string(sum.Edits[0]), `"kind":"delete"`) {
		t.Errorf("the rewind's edits = %s", sum.Edits)
	}
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	if last := reqs[3]; last.Rejected != "" || strings.Contains(string(last.Body), "Change the three files.") {
		t.Errorf("the request after the rewind (rejected %q): %s", last.Rejected, last.Body)
	}
}
