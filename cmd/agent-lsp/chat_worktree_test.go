package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// `chat --worktree name` works in a new git worktree beside the
// repository: the model's write lands there, not in the checkout;
// /worktree apply brings it back; /worktree remove refuses the dirty
// worktree, and --force removes it.
func TestChatWorktree(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "start"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "w1", Name: "write_file", Arguments: `{"path":"note.txt","content":"from the worktree\n"}`}}},
		{Text: "Written."},
	})
	code, out, errOut := chatIn(t, srv, dir, t.TempDir(), "Write a note.\n/worktree apply\n/worktree remove\n/worktree remove --force\n",
		"--worktree", "notes", "--yes")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	tree := filepath.Join(parent, "repo.worktrees", "notes")
	for _, want := range []string{"worktree: " + tree + " (branch agent-lsp/notes)", "Applied note.txt (all 1 hunks).",
		"has uncommitted changes: note.txt", "Removed the worktree " + tree} {
		if !strings.Contains(out+errOut, want) {
			t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", want, out, errOut)
		}
	}
	if got, err := os.ReadFile(filepath.Join(dir, "note.txt")); err != nil || string(got) != "from the worktree\n" {
		t.Errorf("note.txt in the checkout after /worktree apply: %q, %v", got, err)
	}
	if _, err := os.Stat(tree); !os.IsNotExist(err) {
		t.Errorf("the worktree after /worktree remove --force: %v", err)
	}
}
