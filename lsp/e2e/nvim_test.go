package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// nvimReport is what nvim/edit_prompt.lua writes.
type nvimReport struct {
	OK       bool     `json:"ok"`
	Failures []string `json:"failures"`
	Popups   []struct {
		Message string   `json:"message"`
		Actions []string `json:"actions"`
	} `json:"popups"`
	Updates []struct {
		SessionID string `json:"sessionId"`
		Seq       int    `json:"seq"`
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Status    string `json:"status"`
		Text      string `json:"text"`
	} `json:"updates"`
	Result struct {
		SessionID  string `json:"sessionId"`
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	} `json:"result"`
	BufferText   string            `json:"buffer_text"`
	Modified     bool              `json:"modified"`
	OtherBuffers map[string]string `json:"other_buffers"`
	ExitCode     *int              `json:"exit_code"`
}

// newFileText is what the model writes into a new file.
const newFileText = "ñew 🎉 file\nsecond line\n"

// Headless Neovim (each version found: 0.7.2, 0.10, 0.12) with its own
// LSP client: an approved edit_file
// lands in the buffer (unsaved), a denied one leaves it as it was, and an
// approved write_file of a new file creates it (CreateFile, which 0.7.2
// performs by creating an empty file) and fills a new buffer.
func TestNeovimApprovesAndDeniesEdit(t *testing.T) {
	lsptest.ForEachNvim(t, filepath.Join("..", ".."), func(t *testing.T, nv lsptest.Nvim) {
		nvim := nv.Path
		script, err := filepath.Abs(filepath.Join("nvim", "edit_prompt.lua"))
		if err != nil {
			t.Fatal(err)
		}
		newFileArgs, err := json.Marshal(map[string]string{"path": "new.txt", "content": newFileText})
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name       string
			call       providertest.Call
			answer     string // the popup action the handler picks
			wantBuffer string // demo.go's buffer afterwards
			wantNew    *string
			wantStatus string // of the tool_result
			wantOutput string // in the tool result the model reads
		}{
			{"approved edit", providertest.Call{ID: "call_edit", Name: "edit_file", Arguments: docEdit},
				"Allow", docAfter, nil, "completed", "demo.go"},
			{"denied edit", providertest.Call{ID: "call_edit", Name: "edit_file", Arguments: docEdit},
				"Deny", docBefore, nil, "denied", "denied"},
			// Neovim 0.7.2 loads the new, empty file as one empty line and
			// drops the final empty line only after an edit that reaches past
			// the last line: the insert must end past the end (LSP clamps it),
			// or the saved file gets an extra blank line.
			{"approved new file", providertest.Call{ID: "call_edit", Name: "write_file", Arguments: string(newFileArgs)},
				"Allow", docBefore, ptr(newFileText), "completed", "new.txt"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				answer := "Done: " + tt.name + "."
				model := providertest.NewServer(t, providertest.Script{
					{ToolCalls: []providertest.Call{tt.call}},
					{Text: answer},
				})
				d := newDaemon(t, model)
				root := workspace(t, map[string]string{"demo.go": docBefore})
				reportPath := filepath.Join(t.TempDir(), "report.json")
				cfg, err := json.Marshal(map[string]any{
					"command": d.args, "root": root, "file": "demo.go", "original_text": docBefore,
					"prompt": "Shout the first ünïcode.", "popup_answer": tt.answer,
					"report": reportPath, "timeout_ms": 25000, "other_files": []string{"new.txt"},
				})
				if err != nil {
					t.Fatal(err)
				}
				cfgPath := filepath.Join(t.TempDir(), "config.json")
				if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
					t.Fatal(err)
				}
				env := append(isolatedEnv(t), "E2E_CONFIG="+cfgPath)
				_, runErr := runPeer(t, 40*time.Second, root, env, nvim,
					"--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE", "-c", "luafile "+script)
				raw, err := os.ReadFile(reportPath)
				if err != nil {
					t.Fatalf("nvim (%v) wrote no report: %v", runErr, err)
				}
				var rep nvimReport
				if err := json.Unmarshal(raw, &rep); err != nil {
					t.Fatalf("report %s: %v", raw, err)
				}
				if !rep.OK || runErr != nil {
					t.Fatalf("nvim failed (%v):\n  %s", runErr, strings.Join(rep.Failures, "\n  "))
				}

				if rep.BufferText != tt.wantBuffer {
					t.Errorf("buffer = %q, want %q", rep.BufferText, tt.wantBuffer)
				}
				if rep.Modified != (tt.wantBuffer != docBefore) {
					t.Errorf("buffer modified = %v", rep.Modified)
				}
				if disk, _ := os.ReadFile(filepath.Join(root, "demo.go")); string(disk) != docBefore {
					t.Errorf("the file on disk changed to %q", disk)
				}
				if rep.Result.StopReason != "end_turn" || rep.Result.Text != answer {
					t.Errorf("result = %+v", rep.Result)
				}
				if got, ok := rep.OtherBuffers["new.txt"]; (tt.wantNew == nil) == ok || (ok && got != *tt.wantNew) {
					want := "no buffer"
					if tt.wantNew != nil {
						want = fmt.Sprintf("%q", *tt.wantNew)
					}
					t.Errorf("new.txt buffer = %q (exists %v), want %s", got, ok, want)
				}
				if _, err := os.Stat(filepath.Join(root, "new.txt")); (tt.wantNew != nil) != (err == nil) {
					t.Errorf("new.txt on disk: %v", err)
				}
				if len(rep.Popups) != 1 || !strings.Contains(rep.Popups[0].Message, tt.call.Name) ||
					strings.Join(rep.Popups[0].Actions, "|") != "Allow|Allow for this session|Always allow in this workspace|Always allow for me|Deny" {
					t.Errorf("popups = %+v", rep.Popups)
				}
				var status, text string
				for i, u := range rep.Updates {
					if u.Seq != i+1 || u.SessionID != rep.Result.SessionID {
						t.Errorf("update %d = %+v", i, u)
					}
					if u.Kind == "tool_result" {
						status = u.Status
					}
					if u.Kind == "text" {
						text += u.Text
					}
				}
				if status != tt.wantStatus || text != answer {
					t.Errorf("tool_result status %q, streamed text %q", status, text)
				}
				if rep.ExitCode == nil || *rep.ExitCode != 0 {
					t.Errorf("daemon exit code = %v, want 0", rep.ExitCode)
				}
				if out := checkToolRoundTrip(t, model, tt.call.ID); !strings.Contains(out, tt.wantOutput) {
					t.Errorf("tool result the model read = %q, want it to mention %q", out, tt.wantOutput)
				}
			})
		}
	})
}

func ptr[T any](v T) *T { return &v }
