package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The file the inline tests edit: the function greet is on lines 5-7.
const (
	greetBefore = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"hello \" + name\n}\n\nfunc main() { fmt.Println(greet(\"wörld 🎉\")) }\n"
	greetAfter  = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name + \"!\"\n}\n\nfunc main() { fmt.Println(greet(\"wörld 🎉\")) }\n"
	greetEdit   = `{"path":"main.go","old_string":"return \"hello \" + name","new_string":"return \"Hello, \" + name + \"!\""}`
)

// inlineReport is what nvim/inline.lua writes.
type inlineReport struct {
	Popups      []popup    `json:"popups"`
	Approvals   []approval `json:"approvals"`
	FloatsAfter []float    `json:"floats_after"`
	Progress    []struct {
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"progress"`
	Last struct {
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	} `json:"last"`
	BufferText string `json:"buffer_text"`
	Modified   bool   `json:"modified"`
	DiskText   string `json:"disk_text"`
}

// popup is a vim.ui.select the plugin asked with (harness.lua's
// H.answer_approvals): its prompt, kind, items as shown and the floats
// open meanwhile.
type popup struct {
	Prompt string   `json:"prompt"`
	Kind   string   `json:"kind"`
	Items  []string `json:"items"`
	Floats []float  `json:"floats"`
}

// approval is an agent/approve request the plugin handled and its answer
// (harness.lua's H.record_approvals).
type approval struct {
	Params struct {
		SessionID  string   `json:"sessionId"`
		ToolCallID string   `json:"toolCallId"`
		Tool       string   `json:"tool"`
		Risk       string   `json:"risk"`
		Summary    string   `json:"summary"`
		Command    string   `json:"command"`
		Path       string   `json:"path"`
		Reasons    []string `json:"reasons"`
		Hunks      []struct {
			ID   int    `json:"id"`
			Diff string `json:"diff"`
		} `json:"hunks"`
		Options []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
			Kind  string `json:"kind"`
		} `json:"options"`
	} `json:"params"`
	Answer *struct {
		OptionID string `json:"optionId"`
	} `json:"answer"`
}

// float is a floating window open at some point (harness.lua's H.floats).
type float struct {
	Winhighlight string   `json:"winhighlight"`
	Filetype     string   `json:"filetype"`
	Lines        []string `json:"lines"`
}

// isEditDiff reports whether lines are a unified diff of path (its file
// header, then a hunk) holding each of the lines want.
func isEditDiff(lines []string, path string, want ...string) bool {
	if len(lines) < 3 || lines[0] != "--- a/"+path || lines[1] != "+++ b/"+path || !strings.HasPrefix(lines[2], "@@ -") {
		return false
	}
	for _, w := range want {
		if !slices.Contains(lines, w) {
			return false
		}
	}
	return true
}

// ownColours reports whether a float is drawn in the plugin's groups
// (not 0.7's NormalFloat, pink on magenta).
func ownColours(f float) bool {
	return strings.Contains(f.Winhighlight, "Normal:AgentLspFloat") &&
		strings.Contains(f.Winhighlight, "FloatBorder:AgentLspFloatBorder")
}

// :'<,'>AgentInline on the selected function: the model answers with an
// edit_file; the approval shows the diff in a float and asks vim.ui.select;
// Allow lands the edit in the buffer and auto_save writes it, Deny leaves
// buffer and file as they were.
func TestInlineEdit(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		tests := []struct {
			answer     string
			wantOption string // the agent/approve answer
			wantText   string
			wantResult string // in the tool result the model reads
		}{
			{"Allow", "allow_once", greetAfter, "main.go"},
			{"Deny", "deny", greetBefore, "denied"},
		}
		for _, tt := range tests {
			t.Run(tt.answer, func(t *testing.T) {
				t.Parallel()
				answer := "Capitalised the greeting (" + tt.answer + ")."
				model := providertest.NewServer(t, providertest.Script{
					{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: greetEdit}}},
					{Text: answer},
				})
				root := workspace(t, map[string]string{"main.go": greetBefore})
				var rep inlineReport
				scenario{nvim: nvim, script: "inline.lua", root: root, model: model, config: map[string]any{
					"file": "main.go", "line1": 5, "line2": 7, "prompt": "Capitalise the greeting",
					"answer": tt.answer, "expect_saved": tt.answer == "Allow",
				}}.run(t, &rep)

				if rep.BufferText != tt.wantText || rep.Modified {
					t.Errorf("buffer = %q (modified %v), want %q saved", rep.BufferText, rep.Modified, tt.wantText)
				}
				if disk, _ := os.ReadFile(filepath.Join(root, "main.go")); string(disk) != tt.wantText {
					t.Errorf("main.go on disk = %q, want %q", disk, tt.wantText)
				}
				if rep.Last.StopReason != "end_turn" || rep.Last.Text != answer {
					t.Errorf("prompt ended with %+v", rep.Last)
				}
				if len(rep.Popups) != 1 {
					t.Fatalf("popups = %+v, want one", rep.Popups)
				}
				// The approval came as agent/approve with the edit's one hunk,
				// and was answered with the option picked.
				if len(rep.Approvals) != 1 {
					t.Fatalf("agent/approve requests = %+v, want one", rep.Approvals)
				}
				a := rep.Approvals[0]
				if a.Params.Tool != "edit_file" || a.Params.ToolCallID != "call_edit" || a.Params.Path != "main.go" ||
					a.Params.Command != "" || len(a.Params.Hunks) != 1 || a.Params.SessionID == "" {
					t.Errorf("agent/approve = %+v", a.Params)
				}
				if a.Answer == nil || a.Answer.OptionID != tt.wantOption {
					t.Errorf("agent/approve answered %+v, want optionId %q", a.Answer, tt.wantOption)
				}
				p := rep.Popups[0]
				question := "agent-lsp wants to run edit_file (risk " + strings.ToUpper(a.Params.Risk) + "): " + a.Params.Summary
				if p.Prompt != question || p.Kind != "agent_lsp_approval" || strings.Join(p.Items, "|") != "Allow|Allow for this session|Always allow in this workspace|Always allow for me|Deny" {
					t.Errorf("approval asked %q (kind %q) with %q, want %q", p.Prompt, p.Kind, p.Items, question)
				}
				if len(p.Floats) != 1 || p.Floats[0].Filetype != "diff" || !isEditDiff(p.Floats[0].Lines, "main.go",
					"-\treturn \"hello \" + name", "+\treturn \"Hello, \" + name + \"!\"") {
					t.Errorf("diff float while asking = %+v", p.Floats)
				} else if !ownColours(p.Floats[0]) {
					t.Errorf("the approval float's winhighlight is %q", p.Floats[0].Winhighlight)
				}
				// The edit made, the answer is in the chat; not made, its
				// words are shown where the question was asked.
				if n := len(rep.FloatsAfter); (tt.answer == "Allow") != (n == 0) {
					t.Errorf("floats after the prompt = %+v", rep.FloatsAfter)
				}
				var progress []string
				for _, pr := range rep.Progress {
					if pr.Line != 4 {
						t.Errorf("progress %q on line %d, want the selection's first line (4)", pr.Text, pr.Line)
					}
					progress = append(progress, pr.Text)
				}
				for _, want := range []string{"Thinking", "Waiting for approval", "done"} {
					if !strings.Contains(strings.Join(progress, "|"), want) {
						t.Errorf("progress near the selection %q lacks %q", progress, want)
					}
				}

				// The selection reached the model, and the tool result came back.
				first := requestMessages(t, model, 0)
				if user := first[len(first)-1]; user.Role != "user" || !strings.Contains(user.text(), "func greet(name string) string {") ||
					!strings.Contains(user.text(), "Capitalise the greeting") {
					t.Errorf("first request's prompt = %+v", user)
				}
				second := requestMessages(t, model, 1)
				if tool := second[len(second)-1]; tool.Role != "tool" || tool.ToolCallID != "call_edit" ||
					!strings.Contains(tool.text(), tt.wantResult) {
					t.Errorf("tool result the model read = %+v, want it to mention %q", tool, tt.wantResult)
				}
			})
		}
	})
}

// :'<,'>AgentInline with a question: the answer in words is shown in a
// float next to the selection, in the plugin's colours, not only as
// "done".
func TestInlineTextAnswer(t *testing.T) {
	testInlineTextAnswer(t, false)
}

// A markdown ftplugin that errors does not lose the answer: it is shown as
// plain text, with no error message.
func TestInlineTextAnswerWithABrokenMarkdownFtplugin(t *testing.T) {
	testInlineTextAnswer(t, true)
}

func testInlineTextAnswer(t *testing.T, brokenMarkdown bool) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const answer = "greet prefixes the name with \"hello \".\nIt has no other effect."
		model := providertest.NewServer(t, providertest.Script{{Text: answer}})
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep inlineReport
		scenario{nvim: nvim, script: "inline.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "line1": 5, "line2": 7, "prompt": "What does this do?", "broken_markdown": brokenMarkdown,
		}}.run(t, &rep)
		if rep.Last.StopReason != "end_turn" || rep.Last.Text != answer || rep.BufferText != greetBefore {
			t.Errorf("prompt ended with %+v, buffer %q", rep.Last, rep.BufferText)
		}
		if len(rep.FloatsAfter) != 1 || strings.Join(rep.FloatsAfter[0].Lines, "\n") != answer || !ownColours(rep.FloatsAfter[0]) {
			t.Errorf("floats after the answer = %+v, want one with %q", rep.FloatsAfter, answer)
		}
	})
}
