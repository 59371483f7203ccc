//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A worktree session's commands run in a sandbox rooted at the worktree:
// they write there, not in the user's checkout (which is outside it), and
// git reads the worktree's state.
func TestChatWorktreeSandbox(t *testing.T) {
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
	escape := filepath.Join(dir, "escape.txt")
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{bashCall("echo in > inside.txt")}},
		{ToolCalls: []providertest.Call{bashCall("echo pwned > " + escape)}},
		{ToolCalls: []providertest.Call{bashCall("git status --short")}},
		{Text: "Done."},
	})
	code, out, errOut := chatIn(t, srv, dir, t.TempDir(), "", "--worktree", "box", "--yes", "-p", "Try.")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	tree := filepath.Join(parent, "repo.worktrees", "box")
	if got, err := os.ReadFile(filepath.Join(tree, "inside.txt")); err != nil || string(got) != "in\n" {
		t.Errorf("inside.txt in the worktree: %q, %v", got, err)
	}
	if _, err := os.Stat(escape); !os.IsNotExist(err) {
		t.Errorf("a worktree session's command wrote in the user's checkout: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	if r := toolResultTexts(t, reqs[2]); len(r) != 2 || !strings.Contains(r[1], "blocked by the sandbox") {
		t.Errorf("the escape's result %q: want the sandbox's refusal", r)
	}
	if r := toolResultTexts(t, reqs[3]); len(r) != 3 || !strings.Contains(r[2], "?? inside.txt") {
		t.Errorf("git status in the worktree: %q", r)
	}
}
