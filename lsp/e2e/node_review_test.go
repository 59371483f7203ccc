package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// reviewSource has three uses of oldName far enough apart to be three hunks.
const reviewSource = "package demo\n\nfunc oldName() {}\n\n// a\n// b\n// c\n\nvar x = oldName\n\n// d\n// e\n// f\n\nvar y = oldName\n"

// vscode-jsonrpc with experimental.agentReview: the edit comes as
// agent/review (no popup); the client accepts hunks 1 and 3, rejects 2
// with feedback, and types on line 5 while the review is open. The buffer
// ends with exactly hunks 1 and 3 and the typing, in one applyEdit, and
// the model reads which hunk did not land and the feedback.
func TestNodeClientReviewsHunks(t *testing.T) {
	client := requireNodeClient(t)
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file",
			Arguments: `{"path":"demo.go","old_string":"oldName","new_string":"newName","replace_all":true}`}}},
		{Text: "Renamed where you agreed."},
	}
	model := providertest.NewServer(t, script)
	d := newDaemon(t, model)
	root := workspace(t, map[string]string{"demo.go": reviewSource})
	want := strings.NewReplacer("func oldName", "func newName", "var y = oldName", "var y = newName", "// a\n", "// a, typed during the review\n").Replace(reviewSource)

	cfg := map[string]any{
		"command": d.args, "root": root, "file": "demo.go", "toolCallId": "call_rename",
		"originalText": reviewSource, "expectedText": want, "prompt": "Rename oldName.",
		"reviewAnswer": map[string]any{"decision": "partial", "acceptedHunks": []int{1, 3}, "feedback": "keep the old name"},
		"typeDuringReview": map[string]any{
			"range": map[string]any{"start": map[string]int{"line": 4, "character": 4}, "end": map[string]int{"line": 4, "character": 4}},
			"text":  ", typed during the review"},
		"timeoutMs": 25000,
	}
	var sum struct {
		DocumentText string `json:"documentText"`
		Reviews      []struct {
			Hunks []struct {
				ID        int    `json:"id"`
				StartLine int    `json:"startLine"`
				EndLine   int    `json:"endLine"`
				OldText   string `json:"oldText"`
				NewText   string `json:"newText"`
			} `json:"hunks"`
		} `json:"reviews"`
		ApplyEdits []json.RawMessage `json:"applyEdits"`
	}
	client.run(t, "review_prompt.js", cfg, &sum)
	if sum.DocumentText != want {
		t.Errorf("document =\n%s\nwant\n%s", sum.DocumentText, want)
	}
	if len(sum.Reviews) != 1 || len(sum.Reviews[0].Hunks) != 3 || sum.Reviews[0].Hunks[1].StartLine != 8 ||
		sum.Reviews[0].Hunks[1].EndLine != 9 || sum.Reviews[0].Hunks[1].OldText != "var x = oldName\n" {
		t.Errorf("reviews = %+v", sum.Reviews)
	}
	// The edit went against the buffer as the user left it (version 2).
	if len(sum.ApplyEdits) != 1 || !strings.Contains(string(sum.ApplyEdits[0]), `"version":2`) {
		t.Errorf("applyEdit requests = %s", sum.ApplyEdits)
	}
	res := checkToolRoundTrip(t, model, "call_rename")
	for _, w := range []string{"edited demo.go only in part", "NOT applied: hunk 2 (line 9)", "User feedback: keep the old name"} {
		if !strings.Contains(res, w) {
			t.Errorf("the model read %q, without %q", res, w)
		}
	}
}
