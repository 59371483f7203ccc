package control_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// reviewer answers each file's review as answers says (by path), and
// records what it was asked.
type reviewer struct {
	mu      sync.Mutex
	answers map[string]permission.Review
	asked   []permission.Action
}

func (r *reviewer) Approve(context.Context, permission.Action, bool) (permission.Decision, error) {
	return permission.Deny, nil
}

func (r *reviewer) Review(_ context.Context, a permission.Action, _ bool) (permission.Review, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, a)
	return r.answers[a.Path], nil
}

func (r *reviewer) askedPaths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, a := range r.asked {
		out = append(out, a.Path)
	}
	return out
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.hooksPath=/dev/null"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func put(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

const threeHunks = "one\n\n// a\n// b\n// c\n\nfive\n\n// d\n// e\n// f\n\nnine\n"

// worktreeFixture is a checkout with a worktree session whose worktree
// changed a.txt in three hunks (the user's checkout changed its last
// line meanwhile), added .envrc (a protected file: HIGH), made bin.dat
// binary and deleted gone.txt.
func worktreeFixture(t *testing.T, rv *reviewer) (*control.Session, string, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "repo")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(root, "a.txt"), threeHunks)
	put(t, filepath.Join(root, "bin.dat"), "text\n")
	put(t, filepath.Join(root, "gone.txt"), "x\n")
	gitRun(t, root, "init", "-q")
	gitRun(t, root, "add", "-A")
	gitRun(t, root, "commit", "-q", "-m", "start")
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	ctl := control.New(control.Options{Worktrees: control.WorktreeOptions{Bind: func(home control.Binding, dir string) (control.Binding, error) {
		wws, err := tools.NewWorkspace(dir)
		b := home
		b.Workspace = wws
		return b, err
	}}})
	t.Cleanup(func() { _ = ctl.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := ctl.NewWorktreeSession(ctx, control.Binding{Workspace: ws, Approver: rv}, "", "t")
	if err != nil {
		t.Fatal(err)
	}
	tree := s.Worktree().Path
	put(t, filepath.Join(tree, "a.txt"), strings.NewReplacer("one", "ONE", "five", "FIVE", "nine", "NINE").Replace(threeHunks))
	put(t, filepath.Join(tree, ".envrc"), "export X=1\n")
	put(t, filepath.Join(tree, "bin.dat"), "bin\x00ary\n")
	if err := os.Remove(filepath.Join(tree, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(root, "a.txt"), strings.Replace(threeHunks, "nine", "nine, the user's", 1))
	return s, root, tree
}

// apply takes every file without asking but a HIGH one (.envrc, asked
// and refused here); a binary is skipped; a file whose hunk overlaps the
// user's change is skipped whole, the user's text untouched; a deletion
// lands.
func TestWorktreeApply(t *testing.T) {
	rv := &reviewer{answers: map[string]permission.Review{".envrc": {Decision: permission.Deny}}}
	s, root, _ := worktreeFixture(t, rv)
	r, err := s.ReviewWorktree(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rv.askedPaths(), ","); got != ".envrc" {
		t.Errorf("asked about %q, want only .envrc", got)
	}
	if len(r.Applied) != 1 || r.Applied[0].Path != "gone.txt" || len(r.Rejected) != 1 || r.Rejected[0] != ".envrc" || len(r.Skipped) != 2 {
		t.Fatalf("review = %+v", r)
	}
	for _, sk := range r.Skipped {
		if (sk.Path == "a.txt" && !strings.Contains(sk.Reason, "same lines")) || (sk.Path == "bin.dat" && sk.Reason != "binary") {
			t.Errorf("skipped %+v", sk)
		}
	}
	if got := get(t, filepath.Join(root, "a.txt")); got != strings.Replace(threeHunks, "nine", "nine, the user's", 1) {
		t.Errorf("the user's a.txt was touched: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt: %v", err)
	}
	if get(t, filepath.Join(root, ".envrc")) != "" {
		t.Error(".envrc landed though refused")
	}
}

// review by hunk: hunks 1 and 2 of a.txt land, merged with the user's
// change to the last line (which hunk 3 would have overwritten).
func TestWorktreeReviewMergesAcceptedHunksWithTheUsersChange(t *testing.T) {
	rv := &reviewer{answers: map[string]permission.Review{"a.txt": {Decision: permission.AllowOnce, Accepted: []int{1, 2}}}}
	s, root, _ := worktreeFixture(t, rv)
	r, err := s.ReviewWorktree(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("one", "ONE", "five", "FIVE", "nine", "nine, the user's").Replace(threeHunks)
	if got := get(t, filepath.Join(root, "a.txt")); got != want {
		t.Errorf("a.txt = %q, want %q", got, want)
	}
	if len(r.Applied) != 1 || r.Applied[0].Path != "a.txt" || r.Applied[0].Hunks != 3 || len(r.Applied[0].Accepted) != 2 {
		t.Errorf("review = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); err != nil {
		t.Errorf("gone.txt was deleted though its review was not accepted: %v", err)
	}
}
