package worktree_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/agent/control/worktree"
)

// foreignRepoEnv names, to the test binary run as an ordinary user, a
// repository root owns.
const foreignRepoEnv = "AGENT_LSP_WORKTREE_FOREIGN_REPO"

// As an ordinary user (AGENT_LSP_TEST_USER, or nobody): the whole life of
// a worktree works in the user's own repository, the hostile repository
// runs nothing, and a repository another user owns is refused by git's
// safe.directory with ErrUnsafeRepository, nothing made: never a
// worktree of a directory git would not vouch for.
func TestAsAnOrdinaryUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an ordinary user (CI runs as root); as an ordinary user the other tests are this one")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("setpriv (util-linux) not installed")
		}
		t.Skip("setpriv (util-linux) not installed")
	}
	uid, gid := "65534", "65534"
	if name := os.Getenv("AGENT_LSP_TEST_USER"); name != "" {
		u, err := user.Lookup(name)
		if err != nil || u.Uid == "0" {
			t.Fatalf("AGENT_LSP_TEST_USER=%s: not an ordinary account: %v", name, err)
		}
		uid, gid = u.Uid, u.Gid
	}
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	for d := repo; d != os.TempDir() && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil { // readable to the other user, writable only to root
			t.Fatal(err)
		}
	}
	bin := shareTestBinary(t)
	c, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(c, setpriv, "--reuid="+uid, "--regid="+gid, "--clear-groups", bin,
		"-test.run=^(TestCreateChangesMergeRemove|TestMergeRefusesADirtyCheckoutAndAbortsAConflict|TestAHostileRepositoryRunsNothing|TestForeignRepositoryIsRefused)$",
		"-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=/tmp", foreignRepoEnv + "=" + repo}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %s: %v\n%s", uid, err, out)
	}
	for _, name := range []string{"TestCreateChangesMergeRemove", "TestAHostileRepositoryRunsNothing", "TestForeignRepositoryIsRefused"} {
		if !bytes.Contains(out, []byte("--- PASS: "+name)) {
			t.Fatalf("as uid %s, %s did not pass:\n%s", uid, name, out)
		}
	}
	t.Logf("as uid %s:\n%s", uid, bytes.TrimSpace(out))
	if _, err := os.Stat(worktree.DefaultDir(repo)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused repository got a worktree directory: %v", err)
	}
}

// TestForeignRepositoryIsRefused runs inside TestAsAnOrdinaryUser.
func TestForeignRepositoryIsRefused(t *testing.T) {
	repo := os.Getenv(foreignRepoEnv)
	if repo == "" {
		t.Skip("run by TestAsAnOrdinaryUser")
	}
	_, err := worktree.Create(ctx(t), repo, filepath.Join(t.TempDir(), "trees"), "w")
	if !errors.Is(err, worktree.ErrUnsafeRepository) {
		t.Fatalf("Create in another user's repository = %v, want ErrUnsafeRepository", err)
	}
	t.Logf("refused: %v", err)
}

// shareTestBinary copies the running test binary where another user can
// run it.
func shareTestBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "worktree-test-bin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	bin := filepath.Join(dir, "worktree.test")
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(fmt.Errorf("copying the test binary: %w", err))
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Root is no exception: a repository another user owns is refused too
// (git's safe.directory holds for root), never a worktree made of it.
func TestRootIsRefusedAnotherUsersRepository(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("as an ordinary user, TestForeignRepositoryIsRefused is this test")
	}
	repo := newRepo(t, map[string]string{"a.txt": "one\n"})
	if err := filepath.Walk(repo, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534)
	}); err != nil {
		t.Fatal(err)
	}
	_, err := worktree.Create(ctx(t), repo, "", "w")
	if !errors.Is(err, worktree.ErrUnsafeRepository) {
		t.Fatalf("Create as root in another user's repository = %v, want ErrUnsafeRepository", err)
	}
	if _, err := os.Stat(worktree.DefaultDir(repo)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused repository got a worktree directory: %v", err)
	}
}
