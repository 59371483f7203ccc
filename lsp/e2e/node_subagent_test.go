package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// subagentScript is the fake model's side of subagent_prompt.js: three
// children that answer; a child that edits the open file; three children
// waiting for a model that never answers (subagentRequests requests have
// come once they are all in flight).
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
		{ToolCalls: []providertest.Call{{ID: "call_task_e", Name: "task",
			Arguments: `{"description":"finalise","prompt":"mark notes.txt final","tools":["read_file","edit_file"]}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_child_e", Name: "edit_file",
			Arguments: `{"path":"notes.txt","old_string":"draft","new_string":"final"}`}}},
		{Text: "Marked it final."},
		{Text: "Done."},
		tasks("call_c"),
		stalled, stalled, stalled,
	}
}

const subagentRequests = 13

type nodeUpdate struct {
	Kind             string `json:"kind"`
	ParentToolCallID string `json:"parentToolCallId"`
	ToolCallID       string `json:"toolCallId"`
	Name             string `json:"name"`
	Status           string `json:"status"`
	Output           string `json:"output"`
	Text             string `json:"text"`
}

// TestNodeClientFollowsSubagents is issue 28's acceptance line through
// vscode-jsonrpc, in both dialects.
func TestNodeClientFollowsSubagents(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			client := requireNodeClient(t)
			model := providertest.NewServer(t, subagentScript())
			var extra []string
			if dialect == "anthropic" {
				extra = []string{"--provider", "anthropic", "--base-url", model.AnthropicBaseURL()}
			}
			d := newDaemon(t, model, extra...)
			root := workspace(t, map[string]string{"notes.txt": "status: draft\n"})
			readyFile := filepath.Join(t.TempDir(), "ready")
			go func() {
				// The three children of the last prompt are in flight at
				// once: the script may cancel.
				if model.WaitRequests(t.Context(), subagentRequests) == nil {
					_ = os.WriteFile(readyFile, nil, 0o644)
				}
			}()
			cfg := map[string]any{
				"command": d.args, "root": root, "file": "notes.txt", "originalText": "status: draft\n",
				"prompts":      map[string]string{"parallel": "Compare the parsers.", "edit": "Finalise.", "cancel": "Again."},
				"readyFile":    readyFile,
				"transcriptOf": "call_p2",
				"timeoutMs":    35000,
			}
			var sum struct {
				Parallel  []nodeUpdate `json:"parallel"`
				Edit      []nodeUpdate `json:"edit"`
				Approvals []struct {
					ToolCallID       string `json:"toolCallId"`
					Tool             string `json:"tool"`
					ParentToolCallID string `json:"parentToolCallId"`
				} `json:"approvals"`
				DocumentText string `json:"documentText"`
				Cancel       struct {
					StopReason string  `json:"stopReason"`
					MS         float64 `json:"ms"`
				} `json:"cancel"`
				Transcript struct {
					Entries []nodeUpdate `json:"entries"`
				} `json:"transcript"`
			}
			client.run(t, "subagent_prompt.js", cfg, &sum)
			for _, r := range model.Requests() {
				if r.Dialect != dialect || r.Rejected != "" {
					t.Errorf("a %s request (rejected: %q), want %s", r.Dialect, r.Rejected, dialect)
				}
			}

			var summaries []string
			children := map[string]bool{}
			for _, u := range sum.Parallel {
				switch {
				case u.ParentToolCallID != "":
					children[u.ParentToolCallID] = true
				case u.Kind == "tool_result" && u.Name == "task":
					summaries = append(summaries, u.Output)
				}
			}
			slices.Sort(summaries)
			if want := []string{"summary alpha", "summary beta", "summary gamma"}; !slices.Equal(summaries, want) {
				t.Errorf("task results %q, want %q", summaries, want)
			}
			if len(children) != 3 || !children["call_p1"] || !children["call_p2"] || !children["call_p3"] {
				t.Errorf("updates of children %v", children)
			}
			if len(sum.Approvals) != 1 || sum.Approvals[0].ToolCallID != "call_child_e" || sum.Approvals[0].Tool != "edit_file" ||
				sum.Approvals[0].ParentToolCallID != "call_task_e" {
				t.Errorf("approvals %+v, want the child's edit", sum.Approvals)
			}
			if sum.DocumentText != "status: final\n" {
				t.Errorf("the buffer holds %q", sum.DocumentText)
			}
			var childCall bool
			for _, u := range sum.Edit {
				childCall = childCall || (u.Kind == "tool_call" && u.ParentToolCallID == "call_task_e" && u.ToolCallID == "call_child_e")
			}
			if !childCall {
				t.Errorf("no tool_call of the child with its parentToolCallId: %+v", sum.Edit)
			}
			t.Logf("%s: agent/cancel to the prompt's answer with three children waiting: %.1f ms", dialect, sum.Cancel.MS)
			if sum.Cancel.StopReason != "cancelled" || sum.Cancel.MS > 1000 {
				t.Errorf("cancel: %+v", sum.Cancel)
			}
			if len(sum.Transcript.Entries) < 2 || sum.Transcript.Entries[0].Text != "investigate parser two" ||
				!strings.Contains(sum.Transcript.Entries[len(sum.Transcript.Entries)-1].Text, "summary") {
				t.Errorf("the child's transcript %+v", sum.Transcript.Entries)
			}
		})
	}
}
