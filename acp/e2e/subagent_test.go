package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// subagentScript is the fake model's side of subagent.mjs: three children
// that answer; a child that writes a file; three children waiting for a
// model that never answers. subagentRequests is how many requests the
// fake has received once those three are all in flight.
func subagentScript() providertest.Script {
	tasks := func(prefix string) providertest.Turn {
		var cs []providertest.Call
		for i, d := range []string{"one", "two", "three"} {
			cs = append(cs, providertest.Call{ID: prefix + string(rune('1'+i)), Name: "task",
				Arguments: `{"description":"parser ` + d + `","prompt":"investigate parser ` + d + `"}`})
		}
		return providertest.Turn{ToolCalls: cs}
	}
	stalled := providertest.Turn{Text: "never", Fault: &providertest.Fault{Stall: providertest.Forever}}
	return providertest.Script{
		tasks("call_p"),
		{Text: "summary alpha"}, {Text: "summary beta"}, {Text: "summary gamma"},
		{Text: "The parsers differ."},
		{ToolCalls: []providertest.Call{{ID: "call_task_w", Name: "task",
			Arguments: `{"description":"notes","prompt":"write NOTES.md","tools":["write_file"]}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_child_w", Name: "write_file", Arguments: `{"path":"NOTES.md","content":"notes\n"}`}}},
		{Text: "Wrote NOTES.md."},
		{Text: "Done."},
		tasks("call_c"),
		stalled, stalled, stalled,
	}
}

const subagentRequests = 13

type acpCall struct {
	ToolCallID string   `json:"toolCallId"`
	Title      string   `json:"title"`
	Statuses   []string `json:"statuses"`
	Contents   []string `json:"contents"`
	Parent     *string  `json:"parent"`
}

// TestSubagentsThroughTheACPClient is issue 28's acceptance line through
// the ACP SDK's client, in both dialects: task calls are tool calls whose
// content shows the child's progress and whose result is its summary; a
// child's call is its own tool call marked with the task's id, and its
// permission request names it; cancel ends three running children.
func TestSubagentsThroughTheACPClient(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			node, dir := requireSDK(t)
			model := providertest.NewServer(t, subagentScript())
			root := workspace(t, map[string]string{"notes.txt": "notes\n"})
			baseURL := model.OpenAIBaseURL()
			if dialect == "anthropic" {
				baseURL = model.AnthropicBaseURL()
			}
			readyFile := filepath.Join(t.TempDir(), "ready")
			go func() {
				// The three children of the last prompt are in flight at
				// once: the script may cancel.
				if model.WaitRequests(t.Context(), subagentRequests) == nil {
					_ = os.WriteFile(readyFile, nil, 0o644)
				}
			}()
			cfg, err := json.Marshal(map[string]any{
				"command": []string{agentBinary, "acp", "--provider", dialect, "--base-url", baseURL,
					"--api-key-env", "none", "--thinking=false"},
				"root":      root,
				"prompts":   map[string]string{"parallel": "Compare the parsers.", "edit": "Notes, please.", "cancel": "Again."},
				"readyFile": readyFile,
				"timeoutMs": 50000,
			})
			if err != nil {
				t.Fatal(err)
			}
			cfgPath := filepath.Join(t.TempDir(), "config.json")
			if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
				t.Fatal(err)
			}
			raw, runErr := runNode(t, 60*time.Second, node, dir, isolatedEnv(t), filepath.Join(dir, "subagent.mjs"), cfgPath)
			var out struct {
				OK          bool      `json:"ok"`
				Failures    []string  `json:"failures"`
				Violations  []string  `json:"violations"`
				Parallel    []acpCall `json:"parallel"`
				Edit        []acpCall `json:"edit"`
				CancelCalls []acpCall `json:"cancelCalls"`
				Permissions []struct {
					ToolCallID string  `json:"toolCallId"`
					Title      string  `json:"title"`
					Parent     *string `json:"parent"`
				} `json:"permissions"`
				Cancel struct {
					StopReason string  `json:"stopReason"`
					MS         float64 `json:"ms"`
				} `json:"cancel"`
			}
			if err := json.Unmarshal(raw, &out); err != nil {
				t.Fatalf("node: %v; stdout %q: %v", runErr, raw, err)
			}
			if !out.OK || runErr != nil {
				t.Fatalf("the SDK client failed (%v):\n  %s\n  %s", runErr, strings.Join(out.Failures, "\n  "), strings.Join(out.Violations, "\n  "))
			}

			var summaries []string
			for _, c := range out.Parallel {
				if c.Parent != nil || !strings.HasPrefix(c.ToolCallID, "call_p") {
					t.Errorf("parallel: an unexpected call %+v", c)
					continue
				}
				if !strings.HasPrefix(c.Title, "task: parser ") || c.Statuses[len(c.Statuses)-1] != "completed" {
					t.Errorf("task call %+v", c)
				}
				summaries = append(summaries, c.Contents[len(c.Contents)-1])
			}
			slices.Sort(summaries)
			if want := []string{"summary alpha", "summary beta", "summary gamma"}; !slices.Equal(summaries, want) {
				t.Errorf("task results %q, want %q", summaries, want)
			}

			var child *acpCall
			for i, c := range out.Edit {
				if c.Parent != nil {
					child = &out.Edit[i]
				}
			}
			if child == nil || *child.Parent != "call_task_w" || child.ToolCallID != "call_child_w" || !strings.Contains(child.Title, "NOTES.md") {
				t.Fatalf("the child's write_file call: %+v (calls %+v)", child, out.Edit)
			}
			if len(out.Permissions) != 1 || out.Permissions[0].ToolCallID != "call_child_w" ||
				out.Permissions[0].Parent == nil || *out.Permissions[0].Parent != "call_task_w" {
				t.Errorf("permission requests %+v, want the child's call", out.Permissions)
			}
			if b, err := os.ReadFile(filepath.Join(root, "NOTES.md")); err != nil || string(b) != "notes\n" {
				t.Errorf("NOTES.md: %q %v", b, err)
			}

			t.Logf("%s: session/cancel to the prompt's answer with three children running: %.1f ms", dialect, out.Cancel.MS)
			if out.Cancel.MS > 1000 {
				t.Errorf("cancel took %.0f ms", out.Cancel.MS)
			}
			for _, c := range out.CancelCalls {
				if c.Parent == nil && c.Statuses[len(c.Statuses)-1] != "failed" {
					t.Errorf("a cancelled task call ended %+v", c)
				}
			}
		})
	}
}
