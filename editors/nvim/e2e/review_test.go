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

// The file the review tests edit: renaming oldName changes lines 5, 10 and
// 13, three hunks.
const (
	renameBefore = "package main\n\nimport \"fmt\"\n\nfunc oldName() string {\n\treturn \"hi\"\n}\n\nfunc main() {\n\tfmt.Println(oldName())\n}\n\n// oldName says hi.\n"
	renameAll    = "package main\n\nimport \"fmt\"\n\nfunc newName() string {\n\treturn \"hi\"\n}\n\nfunc main() {\n\tfmt.Println(newName())\n}\n\n// newName says hi.\n"
	renameOneTwo = "package main\n\nimport \"fmt\"\n\nfunc newName() string {\n\treturn \"hi\"\n}\n\nfunc main() {\n\tfmt.Println(oldName())\n}\n\n// newName says hi.\n"
	renameEdit   = `{"path":"main.go","old_string":"oldName","new_string":"newName","replace_all":true}`
)

// reviewReport is what nvim/review.lua writes.
type reviewReport struct {
	States []struct {
		Float      bool     `json:"float"`
		Filetype   string   `json:"filetype"`
		Lines      []string `json:"lines"`
		CursorLine string   `json:"cursor_line"`
	} `json:"states"`
	Inputs      []string  `json:"inputs"`
	Last        promptEnd `json:"last"`
	BufferText  string    `json:"buffer_text"`
	Modified    bool      `json:"modified"`
	FloatsAfter int       `json:"floats_after"`
	BackInFile  bool      `json:"back_in_file"`
	Transcript  []string  `json:"transcript"`
}

// marks are the hunk marks a state of the review float shows, in order
// ("✓✗✓").
func marks(lines []string) string {
	var out strings.Builder
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "[✓] hunk "):
			out.WriteString("✓")
		case strings.HasPrefix(l, "[✗] hunk "):
			out.WriteString("✗")
		}
	}
	return out.String()
}

// The review float, driven by typed keys: the model renames oldName in
// three places (three hunks); the keys accept and reject hunks, confirm,
// and type the feedback. The buffer holds exactly the accepted hunks
// (saved), and the model's next request carries a tool result naming the
// rejected hunks and the feedback verbatim.
func TestReviewHunks(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		tests := []struct {
			name       string
			keys       string
			wantMarks  []string // after each key the float read (the first: as opened)
			wantCursor string   // the line the cursor is on when the float closes
			wantInputs int      // feedback prompts asked
			wantText   string
			wantResult []string // in the tool result the model reads
			notResult  []string
		}{
			{
				name: "accept 1 and 3, reject 2 with feedback",
				// r: reject all; <Space> on hunk 1; G to the last line (hunk 3),
				// x toggles it; N back to hunk 2; <CR>; the feedback.
				keys:       "r<Space>GxN<CR>keep the old name<CR>",
				wantMarks:  []string{"✓✓✓", "✗✗✗", "✓✗✗", "✓✗✗", "✓✗✓", "✓✗✓"},
				wantCursor: "[✗] hunk 2 of 3 · line 10",
				wantInputs: 1,
				wantText:   renameOneTwo,
				wantResult: []string{"main.go only in part", "applied hunks 1, 3 of 3", "rejected and NOT applied: hunk 2 (line 10)",
					"\nUser feedback: keep the old name"},
			},
			{
				name:       "accept all without feedback",
				keys:       "<CR><CR>",
				wantMarks:  []string{"✓✓✓"},
				wantCursor: "[✓] hunk 1 of 3 · line 5",
				wantInputs: 1,
				wantText:   renameAll,
				wantResult: []string{"main.go"},
				notResult:  []string{"User feedback", "only in part", "denied"},
			},
			{
				name:       "reject all with feedback",
				keys:       "nar<CR>not now<CR>",
				wantMarks:  []string{"✓✓✓", "✓✓✓", "✓✓✓", "✗✗✗"},
				wantCursor: "[✗] hunk 2 of 3 · line 10",
				wantInputs: 1,
				wantText:   renameBefore,
				wantResult: []string{"denied by the user\nUser feedback: not now"},
			},
			{
				name:       "q rejects without asking",
				keys:       "<Space>q",
				wantMarks:  []string{"✓✓✓", "✗✓✓"},
				wantCursor: "[✗] hunk 1 of 3 · line 5",
				wantInputs: 0,
				wantText:   renameBefore,
				wantResult: []string{"denied by the user"},
				notResult:  []string{"User feedback"},
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				model := providertest.NewServer(t, providertest.Script{
					{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file", Arguments: renameEdit}}},
					{Text: "Renamed what you let me."},
				})
				root := workspace(t, map[string]string{"main.go": renameBefore})
				var rep reviewReport
				scenario{nvim: nvim, script: "review.lua", root: root, model: model, config: map[string]any{
					"file": "main.go", "prompt": "Rename oldName to newName", "keys": tt.keys,
					"expect_saved": tt.wantText != renameBefore,
				}}.run(t, &rep)

				if rep.Last.StopReason != "end_turn" {
					t.Fatalf("the prompt ended with %+v", rep.Last)
				}
				if rep.BufferText != tt.wantText || rep.Modified {
					t.Errorf("buffer = %q (modified %v), want %q saved", rep.BufferText, rep.Modified, tt.wantText)
				}
				if disk, _ := os.ReadFile(filepath.Join(root, "main.go")); string(disk) != tt.wantText {
					t.Errorf("main.go on disk = %q, want %q", disk, tt.wantText)
				}

				// The float: a diff float, entered, with the hunks' diffs under
				// their marks; a state per key read.
				if len(rep.States) == 0 {
					t.Fatal("the review float never opened")
				}
				first := rep.States[0]
				text := strings.Join(first.Lines, "\n")
				if !first.Float || first.Filetype != "diff" {
					t.Errorf("review window: float %v, filetype %q", first.Float, first.Filetype)
				}
				for _, want := range []string{"edit main.go", "risk MEDIUM", "[✓] hunk 1 of 3 · line 5", "-func oldName() string {",
					"+func newName() string {", "[✓] hunk 2 of 3 · line 10", "+\tfmt.Println(newName())", "[✓] hunk 3 of 3 · line 13"} {
					if !strings.Contains(text, want) {
						t.Errorf("review float lacks %q:\n%s", want, text)
					}
				}
				var got []string
				for _, s := range rep.States {
					got = append(got, marks(s.Lines))
				}
				if !slices.Equal(got, tt.wantMarks) {
					t.Errorf("hunk marks after each key = %q, want %q", got, tt.wantMarks)
				}
				if last := rep.States[len(rep.States)-1]; last.CursorLine != tt.wantCursor {
					t.Errorf("cursor on %q when confirming, want %q", last.CursorLine, tt.wantCursor)
				}
				if len(rep.Inputs) != tt.wantInputs {
					t.Errorf("feedback prompts %q, want %d", rep.Inputs, tt.wantInputs)
				}
				if rep.FloatsAfter != 0 || !rep.BackInFile {
					t.Errorf("after the review: %d floats open, back in the file's window: %v", rep.FloatsAfter, rep.BackInFile)
				}

				second := requestMessages(t, model, 1)
				tool := second[len(second)-1]
				if tool.Role != "tool" || tool.ToolCallID != "call_rename" {
					t.Fatalf("last message of the second request = %+v, want the tool result", tool)
				}
				for _, want := range tt.wantResult {
					if !strings.Contains(tool.text(), want) {
						t.Errorf("tool result %q lacks %q", tool.text(), want)
					}
				}
				for _, not := range tt.notResult {
					if strings.Contains(tool.text(), not) {
						t.Errorf("tool result %q has %q", tool.text(), not)
					}
				}
				for _, r := range model.Requests() {
					if r.Rejected != "" {
						t.Errorf("the strict fake model refused a request: %s", r.Rejected)
					}
				}
			})
		}
	})
}
