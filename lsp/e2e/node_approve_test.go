package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// vscode-jsonrpc with experimental.agentApprove only: a command and an
// edit are both asked with agent/approve (no popup). The command comes
// with its text and the three options, the edit with its path, uri and
// hunks; the client allows the edit and denies the command, so the
// buffer ends renamed and the command's result is a denial.
func TestNodeClientAnswersApprovals(t *testing.T) {
	client := requireNodeClient(t)
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"echo hi > out.txt"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file",
			Arguments: `{"path":"demo.go","old_string":"oldName","new_string":"newName","replace_all":true}`}}},
		{Text: "Renamed; the command was denied."},
	}
	model := providertest.NewServer(t, script)
	d := newDaemon(t, model)
	root := workspace(t, map[string]string{"demo.go": reviewSource})
	want := strings.ReplaceAll(reviewSource, "oldName", "newName")

	cfg := map[string]any{
		"command": d.args, "root": root, "file": "demo.go",
		"originalText": reviewSource, "expectedText": want, "prompt": "Run it, then rename oldName.",
		"answers":   map[string]string{"call_bash": "deny", "call_rename": "allow_once"},
		"timeoutMs": 25000,
	}
	type hunk struct {
		ID        int    `json:"id"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
		OldText   string `json:"oldText"`
		NewText   string `json:"newText"`
	}
	var sum struct {
		DocumentText string `json:"documentText"`
		Approvals    []struct {
			ToolCallID string  `json:"toolCallId"`
			Tool       string  `json:"tool"`
			Command    *string `json:"command"`
			Path       string  `json:"path"`
			URI        string  `json:"uri"`
			Hunks      []hunk  `json:"hunks"`
			Options    []struct {
				ID string `json:"id"`
			} `json:"options"`
		} `json:"approvals"`
		ToolResults []struct {
			ToolCallID string `json:"toolCallId"`
			Status     string `json:"status"`
			Output     string `json:"output"`
		} `json:"toolResults"`
	}
	client.run(t, "approve_prompt.js", cfg, &sum)
	if sum.DocumentText != want {
		t.Errorf("document =\n%s\nwant\n%s", sum.DocumentText, want)
	}
	if len(sum.Approvals) != 2 {
		t.Fatalf("approvals = %+v, want the command's and the edit's", sum.Approvals)
	}
	bash, edit := sum.Approvals[0], sum.Approvals[1]
	if bash.ToolCallID != "call_bash" || bash.Tool != "run_bash" || bash.Command == nil || *bash.Command != "echo hi > out.txt" ||
		bash.Path != "" || bash.Hunks != nil || len(bash.Options) != 3 ||
		bash.Options[0].ID != "allow_once" || bash.Options[1].ID != "allow_session" || bash.Options[2].ID != "deny" {
		t.Errorf("the command's approval = %+v", bash)
	}
	if edit.ToolCallID != "call_rename" || edit.Tool != "edit_file" || edit.Command != nil || edit.Path != "demo.go" ||
		!strings.HasPrefix(edit.URI, "file://") || !strings.HasSuffix(edit.URI, "/demo.go") || len(edit.Hunks) != 3 ||
		edit.Hunks[1] != (hunk{ID: 2, StartLine: 8, EndLine: 9, OldText: "var x = oldName\n", NewText: "var x = newName\n"}) {
		t.Errorf("the edit's approval = %+v", edit)
	}
	if len(sum.ToolResults) != 2 || sum.ToolResults[0].Status != "denied" || sum.ToolResults[0].Output != "denied by the user" ||
		sum.ToolResults[1].Status != "completed" {
		t.Errorf("tool results = %+v", sum.ToolResults)
	}
	if _, err := os.Stat(filepath.Join(root, "out.txt")); err == nil {
		t.Error("the denied command ran")
	}
}
