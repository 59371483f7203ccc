//go:build linux

package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// The sandbox must hold, and everyday commands must work, for the account
// people actually use, not only for root. The process tests that drive the
// real binary run it as each of testAccounts: whoever runs the tests and,
// when that is root, an ordinary account through setpriv.

// testUserEnv names the ordinary account (.ci/run creates it with
// scripts/ensure-test-user); without it the tests use nobody.
const testUserEnv = "AGENT_LSP_TEST_USER"

// account is who the real binary runs as.
type account struct {
	name     string
	uid, gid int
	setpriv  string // "" : the current user, no switch
}

func (a account) String() string { return fmt.Sprintf("%s (uid %d)", a.name, a.uid) }

// switched reports whether commands are run as another user than the
// test's.
func (a account) switched() bool { return a.setpriv != "" }

// testAccounts is the current user and, when the tests run as root, the
// ordinary account. Under CI a root run without setpriv or without the
// named account fails: it would prove nothing about ordinary users.
func testAccounts(t *testing.T) []account {
	t.Helper()
	me := account{name: "current user", uid: os.Getuid(), gid: os.Getgid()}
	if u, err := user.Current(); err == nil {
		me.name = u.Username
	}
	if os.Getuid() != 0 {
		return []account{me} // already an ordinary account
	}
	other, err := ordinaryAccount()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("running as root without an ordinary account to run as (scripts/ensure-test-user makes one): %v", err)
		}
		t.Logf("only as root: %v", err)
		return []account{me}
	}
	return []account{me, other}
}

// ordinaryAccount is the account testUserEnv names, or nobody.
func ordinaryAccount() (account, error) {
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		return account{}, fmt.Errorf("setpriv (util-linux) is not installed: %w", err)
	}
	name := os.Getenv(testUserEnv)
	if name == "" {
		return account{name: "nobody", uid: 65534, gid: 65534, setpriv: setpriv}, nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return account{}, fmt.Errorf("%s=%s: %w", testUserEnv, name, err)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil || uid == 0 {
		return account{}, fmt.Errorf("%s=%s: uid %q gid %q is not an ordinary account", testUserEnv, name, u.Uid, u.Gid)
	}
	return account{name: name, uid: uid, gid: gid, setpriv: setpriv}, nil
}

// command is name args run as the account (setpriv execs it: the process
// started is the program itself, its pid is the program's).
func (a account) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	if !a.switched() {
		return exec.CommandContext(ctx, name, args...)
	}
	return exec.CommandContext(ctx, a.setpriv, a.argv(name, args...)...)
}

// argv is the setpriv argument list that runs name args as the account.
func (a account) argv(name string, args ...string) []string {
	return append([]string{fmt.Sprintf("--reuid=%d", a.uid), fmt.Sprintf("--regid=%d", a.gid), "--clear-groups", "--", name}, args...)
}

// tempDir is a directory for one test that the account owns and can
// reach: under the system temp dir (t.TempDir's parents are root's, 0700),
// 0755, removed at the end whatever the account left in it.
func (a account) tempDir(t *testing.T) string {
	t.Helper()
	if !a.switched() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "agent-lsp-"+a.name+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A read-only directory the sandbox or a tool left (Go's module
		// cache makes them) must not stop the removal.
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		if err := os.RemoveAll(dir); err != nil {
			t.Errorf("removing %s: %v", dir, err)
		}
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// own hands the tree at dir to the account (what the test made there as
// root becomes the account's, as a user's own workspace and home are).
func (a account) own(t *testing.T, dir string) {
	t.Helper()
	if !a.switched() {
		return
	}
	err := filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, a.uid, a.gid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// isolatedEnv is lsptest.IsolatedEnv for the account: for another user
// its HOME and XDG directories are under dir (made here; own hands them
// over), not in the test's root-only temp dirs.
func (a account) isolatedEnv(t *testing.T, dir string) []string {
	t.Helper()
	if !a.switched() {
		return lsptest.IsolatedEnv(t)
	}
	home := filepath.Join(dir, "home")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	for _, d := range []string{"CONFIG_HOME", "DATA_HOME", "STATE_HOME", "CACHE_HOME", "RUNTIME_DIR"} {
		p := filepath.Join(home, strings.ToLower(d))
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, "XDG_"+d+"="+p)
	}
	a.own(t, dir)
	return env
}
