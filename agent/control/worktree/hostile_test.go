package worktree_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

// trapRepo is a checkout whose configuration, attributes and hooks name
// a program at every place git could run one during our calls; the
// program appends what ran it to the returned marker file.
func trapRepo(t *testing.T) (repo, marker string) {
	t.Helper()
	repo = newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	dir := t.TempDir()
	marker = filepath.Join(dir, "ran")
	trap := filepath.Join(dir, "trap")
	// A filter must pass its input through for git to go on; the others
	// need only run.
	writeFile(t, trap, "#!/bin/sh\necho \"$0 $*\" >> "+marker+"\ncat\n")
	if err := os.Chmod(trap, 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(dir, "hooks")
	for _, hook := range []string{"post-checkout", "pre-commit", "commit-msg", "post-commit", "pre-merge-commit", "post-merge",
		"reference-transaction", "post-index-change", "prepare-commit-msg", "pre-auto-gc"} {
		for _, d := range []string{hooks, filepath.Join(repo, ".git", "hooks")} {
			writeFile(t, filepath.Join(d, hook), "#!/bin/sh\necho "+hook+" >> "+marker+"\n")
			if err := os.Chmod(filepath.Join(d, hook), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeFile(t, filepath.Join(repo, ".gitattributes"), "* filter=trap merge=trap diff=trap\n")
	setupGit(t, repo, "add", ".gitattributes")
	setupGit(t, repo, "commit", "-q", "-m", "attributes")
	for _, kv := range [][2]string{
		{"core.hooksPath", hooks}, {"core.fsmonitor", trap}, {"core.sshCommand", trap}, {"core.editor", trap},
		{"core.pager", trap}, {"sequence.editor", trap}, {"filter.trap.clean", trap}, {"filter.trap.smudge", trap},
		{"filter.trap.process", trap}, {"filter.trap.required", "true"}, {"merge.trap.driver", trap + " %O %A %B"},
		{"merge.default", "trap"}, {"diff.trap.textconv", trap}, {"diff.trap.command", trap}, {"diff.external", trap},
		{"commit.gpgSign", "true"}, {"gpg.program", trap}, {"merge.verifySignatures", "true"},
		{"gc.auto", "1"}, {"gc.autoDetach", "false"}, {"submodule.recurse", "true"},
	} {
		setupGit(t, repo, "config", kv[0], kv[1])
	}
	return repo, marker
}

// Nothing the repository's configuration or hooks name runs during a
// worktree's whole life: made, listed, its changes read, committed,
// merged into the checkout, removed.
func TestAHostileRepositoryRunsNothing(t *testing.T) {
	repo, marker := trapRepo(t)
	tree, err := worktree.Create(ctx(t), repo, "", "w")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(tree.Path, "a.txt"), "one\nagent\n")
	writeFile(t, filepath.Join(tree.Path, "c.txt"), "new\n")
	if _, err := tree.Changes(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := worktree.Remove(ctx(t), tree, false); !errors.As(err, new(*worktree.DirtyError)) {
		t.Fatalf("Remove of the dirty worktree = %v", err)
	}
	if _, err := tree.Commit(ctx(t), "agent"); err != nil {
		t.Fatal(err)
	}
	if err := worktree.Merge(ctx(t), tree, "merge"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(repo, "a.txt")); got != "one\nagent\n" {
		t.Errorf("a.txt after the merge = %q", got)
	}
	if _, err := worktree.Remove(ctx(t), tree, true); err != nil {
		t.Fatal(err)
	}
	if ran, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the repository ran programs during our git calls:\n%s", ran)
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}

// The trap is armed: the same repository runs its programs under a
// plain git, so the test above would see them.
func TestTheTrapRepositoryIsArmed(t *testing.T) {
	repo, marker := trapRepo(t)
	writeFile(t, filepath.Join(repo, "a.txt"), "changed\n")
	setupGitUnguarded(t, repo, "status")
	if ran, err := os.ReadFile(marker); err != nil || !strings.Contains(string(ran), "trap") {
		t.Fatalf("a plain git status ran nothing (%v): the trap is not armed", err)
	}
}
