package acp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// session/new with _meta {"agent-lsp": {"worktree": "name"}} works in a
// new git worktree beside cwd's repository (answered in the same _meta):
// the model's write lands there, not in cwd; /worktree apply brings it
// back; /worktree remove refuses the dirty worktree, --force removes it.
func TestWorktreeSessionOverACP(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: dialect, script: providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "w1", Name: "write_file", Arguments: `{"path":"note.txt","content":"from the worktree\n"}`}}},
				{Text: "Written."},
			}})
			h.initialize(false)
			cwd := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(cwd, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cwd, "a.txt"), []byte("a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "start"}} {
				cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
				cmd.Dir = cwd
				cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("git %v: %v\n%s", args, err, out)
				}
			}
			resp, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{},
				Meta: map[string]any{"agent-lsp": map[string]any{"worktree": "acp"}}})
			if err != nil {
				t.Fatal(err)
			}
			tree := filepath.Join(filepath.Dir(cwd), "repo.worktrees", "acp")
			ours, _ := resp.Meta["agent-lsp"].(map[string]any)
			wt, _ := ours["worktree"].(map[string]any)
			if real, _ := filepath.EvalSymlinks(filepath.Dir(cwd)); wt["path"] != tree && wt["path"] != filepath.Join(real, "repo.worktrees", "acp") ||
				wt["branch"] != "agent-lsp/acp" {
				t.Fatalf("session/new _meta = %v", resp.Meta)
			}
			if r := h.prompt(resp.SessionId, "Write a note."); r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("prompt: %+v", r)
			}
			if got, err := os.ReadFile(filepath.Join(tree, "note.txt")); err != nil || string(got) != "from the worktree\n" {
				t.Fatalf("note.txt in the worktree: %q, %v", got, err)
			}
			if _, err := os.Stat(filepath.Join(cwd, "note.txt")); !os.IsNotExist(err) {
				t.Fatalf("the worktree session wrote in cwd: %v", err)
			}
			h.prompt(resp.SessionId, "/worktree apply")
			if got, err := os.ReadFile(filepath.Join(cwd, "note.txt")); err != nil || string(got) != "from the worktree\n" {
				t.Errorf("note.txt in cwd after /worktree apply: %q, %v", got, err)
			}
			_, err = h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: resp.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("/worktree remove")}})
			if err == nil || !strings.Contains(err.Error(), "uncommitted changes") {
				t.Fatalf("/worktree remove of the dirty worktree: %v", err)
			}
			h.prompt(resp.SessionId, "/worktree remove --force")
			if _, err := os.Stat(tree); !os.IsNotExist(err) {
				t.Errorf("the worktree after /worktree remove --force: %v", err)
			}
		})
	}
}
