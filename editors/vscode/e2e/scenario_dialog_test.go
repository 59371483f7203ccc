package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Safe defaults and the review (issue 25, items 5 and 3;
// scenario/lib/steps_dialog.mjs): the model asks to force-push, a HIGH
// command; the user presses Enter on the dialog, which denies (Deny is the
// focused button), and the model's next request carries the denial. Then
// an edit of three hunks: Escape hides the review's pick and the edit
// waits, its diff and lenses in view; the status bar brings the pick back
// and the user accepts every hunk.
func TestCodeServerDialog(t *testing.T) {
	peers := requireScenario(t)
	const (
		highPrompt  = "Commit and publish my work."
		highCommand = "git commit -am wip && git push --force origin main"
		highAnswer  = "I did not push: you denied it."
		editPrompt  = "Rename oldName to newName."
		editAnswer  = "Renamed all three."
	)
	model := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_push", Name: "run_bash", Arguments: `{"command":"` + highCommand + `"}`}}},
		{Text: highAnswer},
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file", Arguments: renameArgs}}},
		{Text: editAnswer},
	})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"suite": "dialog", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": hostileArtifacts(t, "dialog"), "file": "review.go", "timeoutMs": 20000,
		"highPrompt": highPrompt, "highCommand": highCommand, "highAnswer": highAnswer,
		"editPrompt": editPrompt, "editAnswer": editAnswer,
		"hunks": 3, "hunkLines": []string{"func newName() {}", "var x = newName", "var y = newName"},
	}
	sum := runScenario(t, peers, cfg) // it logs the steps and where the screenshots are
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	reqs := model.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model requests, want 4", len(reqs))
	}
	for i, r := range reqs {
		if r.Rejected != "" {
			t.Errorf("request %d was rejected by the strict fake: %s", i, r.Rejected)
		}
	}
	if body := string(reqs[1].Body); !strings.Contains(body, jsonText("denied by the user")) {
		t.Errorf("the request after Enter on the HIGH dialog carries no denial: %s", body)
	}
	// Escape did not answer the review: the edit's result is the whole edit applied.
	if body := string(reqs[3].Body); !strings.Contains(body, jsonText("call_rename")) || strings.Contains(body, jsonText("NOT applied")) {
		t.Errorf("the request after the review: %s", body)
	}
	renamed := strings.ReplaceAll(reviewSource, "oldName", "newName")
	if disk, _ := os.ReadFile(filepath.Join(workspace, "review.go")); string(disk) != renamed {
		t.Errorf("review.go after the review: %q, want every hunk", disk)
	}
}
