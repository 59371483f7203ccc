// Package ordinaryaccount runs part of a test binary as an ordinary
// account, for the tests that prove a file or trust rule as root and as
// a user who is not: the account (AGENT_LSP_TEST_USER, which
// scripts/ensure-test-user makes in CI, else nobody), a copy of the
// running test binary that account may execute, and a run of named tests
// through setpriv. For tests only; a leaf.
package ordinaryaccount

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Account is the ordinary account the tests switch to.
type Account struct {
	UID, GID int
	setpriv  string
}

// Lookup is the account, or skips t when this process cannot switch to
// it (not root, no setpriv, no such account); under CI, where every one
// of these is installed, it fails instead: a skip there would hide the
// half of the test that matters.
func Lookup(t testing.TB) Account {
	t.Helper()
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an ordinary account (CI runs as root)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		skip("setpriv (util-linux) not installed")
	}
	a := Account{UID: 65534, GID: 65534, setpriv: setpriv}
	if name := os.Getenv("AGENT_LSP_TEST_USER"); name != "" {
		u, err := user.Lookup(name)
		if err != nil || u.Uid == "0" {
			skip(fmt.Sprintf("AGENT_LSP_TEST_USER=%s: not an ordinary account: %v", name, err))
		}
		a.UID, _ = strconv.Atoi(u.Uid)
		a.GID, _ = strconv.Atoi(u.Gid)
	}
	return a
}

// CopyTestBinary copies the running test binary into dir as name, mode
// 0755: the account may not enter the go command's build directory.
func CopyTestBinary(t testing.TB, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, name)
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

// Run runs the tests named (each matched whole) of bin as the account,
// from /, with env as the whole environment (PATH is added), within two
// minutes, and fails t unless each of them passed. It returns the
// output.
func (a Account) Run(t testing.TB, bin string, names []string, env []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.setpriv, "--reuid="+strconv.Itoa(a.UID), "--regid="+strconv.Itoa(a.GID), "--clear-groups",
		bin, "-test.run=^("+strings.Join(names, "|")+")$", "-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
	out, err := cmd.CombinedOutput()
	for _, name := range names {
		if err != nil || !strings.Contains(string(out), "--- PASS: "+name+" ") {
			t.Fatalf("as uid %d, %s did not pass: %v\n%s", a.UID, name, err, out)
		}
	}
	return string(out)
}
