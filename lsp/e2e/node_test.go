package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The document both real clients edit: its second line holds characters
// outside the BMP, so UTF-16 and UTF-8 columns differ after them.
const (
	docBefore = "package demo\n// héllo wörld 🎉 say ünïcode 🚀 twice: ünïcode\nfunc main() {}\n"
	docAfter  = "package demo\n// héllo wörld 🎉 say ÜNÏCODE 🚀 twice: ünïcode\nfunc main() {}\n"
	docEdit   = `{"path":"demo.go","old_string":"say ünïcode","new_string":"say ÜNÏCODE"}`
)

// nodeSummary is what node/edit_prompt.js prints.
type nodeSummary struct {
	DocumentText    string   `json:"documentText"`
	DocumentVersion int      `json:"documentVersion"`
	Kinds           []string `json:"kinds"`
	Result          struct {
		StopReason string         `json:"stopReason"`
		Text       string         `json:"text"`
		Usage      provider.Usage `json:"usage"`
	} `json:"result"`
	ApplyEdits []json.RawMessage `json:"applyEdits"`
	Exit       struct {
		Code *int `json:"code"`
	} `json:"exit"`
}

// vscode-jsonrpc, as VS Code uses it: initialize, open, prompt, allow the
// popup, apply the edit to the in-memory document (UTF-16 positions), send
// didChange, shut down; the daemon exits 0.
func TestNodeClientEditsOpenDocument(t *testing.T) {
	client := requireNodeClient(t)

	const answer = "Shouted the first ünïcode; the second is left as it was."
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: docEdit}},
			Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 40, CachedTokens: 0}},
		{Text: answer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 25, CachedTokens: 896}},
	}
	model := providertest.NewServer(t, script)
	d := newDaemon(t, model)
	root := workspace(t, map[string]string{"demo.go": docBefore})
	wantUsage := provider.Usage{PromptTokens: 1900, CompletionTokens: 65, CachedTokens: 896}

	cfg := map[string]any{
		"command": d.args, "root": root, "file": "demo.go",
		"originalText": docBefore, "expectedText": docAfter,
		"prompt": "Shout the first ünïcode.", "popupAnswer": "Allow",
		"expectText": answer, "expectUsage": wantUsage, "timeoutMs": 25000,
	}
	var sum nodeSummary
	client.run(t, "edit_prompt.js", cfg, &sum)
	// The script checked everything it can see; check it saw what we expect.
	if sum.DocumentText != docAfter || sum.DocumentVersion != 2 || sum.Result.StopReason != "end_turn" ||
		sum.Result.Text != answer || sum.Result.Usage != wantUsage || sum.Exit.Code == nil || *sum.Exit.Code != 0 {
		t.Errorf("summary = %+v", sum)
	}
	if len(sum.ApplyEdits) != 1 || !strings.Contains(string(sum.ApplyEdits[0]), `"label":"agent: edit_file demo.go"`) {
		t.Errorf("applyEdit requests = %s", sum.ApplyEdits)
	}
	// Edits land in the editor's buffer, not on disk.
	if disk, _ := os.ReadFile(filepath.Join(root, "demo.go")); string(disk) != docBefore {
		t.Errorf("the file on disk changed to %q", disk)
	}
	checkToolRoundTrip(t, model, "call_edit")
}

// checkToolRoundTrip checks that the model's second request answered the
// call it made in the first.
func checkToolRoundTrip(t *testing.T, model *providertest.Server, callID string) string {
	t.Helper()
	reqs := model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		} `json:"messages"`
	}
	if err := reqs[1].Decode(&body); err != nil {
		t.Fatal(err)
	}
	for _, m := range body.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	t.Errorf("the second model request carries no tool result for %s: %s", callID, reqs[1].Body)
	return ""
}
