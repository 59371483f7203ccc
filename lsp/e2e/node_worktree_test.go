package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// vscode-jsonrpc runs a session in its own git worktree: the model's edit
// lands in the worktree, not in the open document; reviewing the
// worktree and accepting hunks 1 and 2 of 3 lands exactly those in the
// document, in one applyEdit; the dirty worktree is removed only with
// force.
func TestNodeClientWorktreeReview(t *testing.T) {
	client := requireNodeClient(t)
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file",
			Arguments: `{"path":"demo.go","old_string":"oldName","new_string":"newName","replace_all":true}`}}},
		{Text: "Renamed in the worktree."},
	}
	model := providertest.NewServer(t, script)
	d := newDaemon(t, model, "--state-dir", t.TempDir())
	root := workspace(t, map[string]string{"demo.go": reviewSource})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "start"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	want := strings.NewReplacer("func oldName", "func newName", "var x = oldName", "var x = newName").Replace(reviewSource)
	cfg := map[string]any{
		"command": d.args, "root": root, "file": "demo.go", "originalText": reviewSource, "expectedText": want,
		"prompt": "Rename oldName.", "worktreeName": "node",
		"worktreeAnswer": map[string]any{"decision": "partial", "acceptedHunks": []int{1, 2}},
		"timeoutMs":      25000,
	}
	var sum struct {
		DocumentText string `json:"documentText"`
		Removed      struct {
			Path string `json:"path"`
		} `json:"removed"`
	}
	client.run(t, "worktree_review.js", cfg, &sum)
	if sum.DocumentText != want {
		t.Errorf("document =\n%s\nwant\n%s", sum.DocumentText, want)
	}
	if _, err := os.Stat(sum.Removed.Path); sum.Removed.Path == "" || !os.IsNotExist(err) {
		t.Errorf("the worktree %q after its removal: %v", sum.Removed.Path, err)
	}
}
