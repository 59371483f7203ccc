package worktree_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// setupGit runs git for the test's own setup (never hostile: the
// repository's traps are set after it).
func setupGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null",
		"-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newRepo is a checkout with one commit of files, in a directory of its
// own (the worktrees go beside it).
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	return newRepoTB(t, files)
}

func newRepoTB(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	setupGit(t, dir, "init", "-q")
	for name, text := range files {
		writeFile(t, filepath.Join(dir, name), text)
	}
	setupGit(t, dir, "add", "-A")
	setupGit(t, dir, "commit", "-q", "-m", "start")
	return dir
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A worktree is made beside the repository on a new branch from HEAD;
// its changes against the base are listed with the base's text; it is
// not removed with uncommitted changes unless forced; committed and
// merged, its branch lands in the checkout, and removing it then takes
// the branch too.
func TestCreateChangesMergeRemove(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "bee\n", "gone.txt": "x\n"})
	head := setupGit(t, repo, "rev-parse", "HEAD")
	tree, err := worktree.Create(ctx(t), filepath.Join(repo), "", "w1")
	if err != nil {
		t.Fatal(err)
	}
	wantPath := filepath.Join(filepath.Dir(repo), "repo.worktrees", "w1")
	if real, _ := filepath.EvalSymlinks(filepath.Dir(repo)); tree.Path != filepath.Join(real, "repo.worktrees", "w1") && tree.Path != wantPath {
		t.Errorf("path = %s, want %s", tree.Path, wantPath)
	}
	if tree.Branch != "agent-lsp/w1" || tree.Base != head {
		t.Errorf("tree = %+v, want branch agent-lsp/w1 from %s", tree, head)
	}
	if got := readFile(t, filepath.Join(tree.Path, "a.txt")); got != "one\ntwo\n" {
		t.Fatalf("a.txt in the worktree = %q", got)
	}
	if _, err := worktree.Create(ctx(t), repo, "", "w1"); err == nil {
		t.Error("a second worktree of the same name was made")
	}

	writeFile(t, filepath.Join(tree.Path, "a.txt"), "one\n2\n")
	writeFile(t, filepath.Join(tree.Path, "new.txt"), "fresh\n")
	if err := os.Remove(filepath.Join(tree.Path, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	changes, err := tree.Changes(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []worktree.Change{{Path: "a.txt", InBase: true, BaseText: "one\ntwo\n"},
		{Path: "gone.txt", InBase: true, BaseText: "x\n", Deleted: true}, {Path: "new.txt"}}
	if !slices.Equal(changes, want) {
		t.Errorf("changes = %+v\nwant %+v", changes, want)
	}

	_, err = worktree.Remove(ctx(t), tree, false)
	var dirty *worktree.DirtyError
	if !errors.As(err, &dirty) || len(dirty.Files) != 3 {
		t.Fatalf("Remove of a dirty worktree = %v, want a DirtyError naming 3 files", err)
	}
	if _, err := os.Stat(filepath.Join(tree.Path, "new.txt")); err != nil {
		t.Fatalf("the refused removal lost a file: %v", err)
	}

	if made, err := tree.Commit(ctx(t), "agent work"); err != nil || !made {
		t.Fatalf("Commit = %v, %v", made, err)
	}
	if err := worktree.Merge(ctx(t), tree, "merge agent work"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(repo, "a.txt")); got != "one\n2\n" {
		t.Errorf("a.txt after the merge = %q", got)
	}
	if _, err := os.Stat(filepath.Join(repo, "gone.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gone.txt after the merge: %v", err)
	}
	res, err := worktree.Remove(ctx(t), tree, false)
	if err != nil || res.BranchKept {
		t.Fatalf("Remove after the merge = %+v, %v", res, err)
	}
	if _, err := os.Stat(tree.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the worktree is still there: %v", err)
	}
	if out := setupGit(t, repo, "branch", "--list", "agent-lsp/*"); out != "" {
		t.Errorf("branches left: %q", out)
	}
}

// A merge never touches the checkout's uncommitted changes: with a
// modified tracked file it is refused, and a merge that conflicts is
// aborted, leaving the checkout as it was.
func TestMergeRefusesADirtyCheckoutAndAbortsAConflict(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	tree, err := worktree.Create(ctx(t), repo, "", "w")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(tree.Path, "a.txt"), "agent\n")
	if _, err := tree.Commit(ctx(t), "agent"); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(repo, "a.txt"), "user, unsaved work\n")
	var dirty *worktree.DirtyError
	if err := worktree.Merge(ctx(t), tree, "m"); !errors.As(err, &dirty) {
		t.Fatalf("Merge into a dirty checkout = %v", err)
	}
	if got := readFile(t, filepath.Join(repo, "a.txt")); got != "user, unsaved work\n" {
		t.Fatalf("the user's change was touched: %q", got)
	}
	setupGit(t, repo, "commit", "-q", "-am", "user")
	before := setupGit(t, repo, "rev-parse", "HEAD")
	if err := worktree.Merge(ctx(t), tree, "m"); !errors.Is(err, worktree.ErrMergeConflict) {
		t.Fatalf("a conflicting merge = %v", err)
	}
	if got := readFile(t, filepath.Join(repo, "a.txt")); got != "user, unsaved work\n" {
		t.Errorf("a.txt after the aborted merge = %q", got)
	}
	if after := setupGit(t, repo, "rev-parse", "HEAD"); after != before {
		t.Errorf("HEAD moved: %s → %s", before, after)
	}
	if st := setupGit(t, repo, "status", "--porcelain"); st != "" {
		t.Errorf("the checkout is not clean after the abort: %q", st)
	}
}

// Names are checked before anything is made.
func TestCreateRefusesBadNames(t *testing.T) {
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	for _, name := range []string{"", "../x", "a/b", "-x", "x.lock", "a..b", ".hidden", strings.Repeat("n", 65)} {
		if _, err := worktree.Create(ctx(t), repo, "", name); err == nil {
			t.Errorf("Create(%q) succeeded", name)
		}
	}
	if _, err := worktree.Create(ctx(t), t.TempDir(), "", "x"); !errors.Is(err, worktree.ErrNotARepository) {
		t.Errorf("Create outside a repository = %v", err)
	}
}

// setupGitUnguarded runs git as a user would, hooks and all.
func setupGitUnguarded(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	_, _ = cmd.CombinedOutput() // what it ran is the point, not its answer
}
