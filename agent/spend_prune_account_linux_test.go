package agent

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

// pruneChildEnv names the directory the root parent prepared, for the
// copy of this test binary that runs as an ordinary account.
const pruneChildEnv = "AGENT_LSP_LEDGER_PRUNE_CHILD"

// TestLedgerPruneAsOrdinaryUser runs the prune as an ordinary account
// (AGENT_LSP_TEST_USER, else nobody) on a ledger directory it owns, in
// which root left an old day file: root's file stays, although the
// account may unlink it (it owns the directory).
func TestLedgerPruneAsOrdinaryUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an ordinary user (CI runs as root)")
	}
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		skip("setpriv (util-linux) not installed")
	}
	uid, gid := 65534, 65534
	if name := os.Getenv("AGENT_LSP_TEST_USER"); name != "" {
		u, err := user.Lookup(name)
		if err != nil || u.Uid == "0" {
			skip(fmt.Sprintf("AGENT_LSP_TEST_USER=%s: not an ordinary account: %v", name, err))
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	top, err := os.MkdirTemp("", "ledger-prune-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(top, "agent.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	base, spend := filepath.Join(top, "home"), filepath.Join(top, "home", "spend")
	if err := os.MkdirAll(spend, 0o700); err != nil {
		t.Fatal(err)
	}
	roots := filepath.Join(spend, "2020-02-02.jsonl")
	if err := os.WriteFile(roots, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{base, spend} {
		if err := os.Chown(d, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid="+strconv.Itoa(uid), "--regid="+strconv.Itoa(gid), "--clear-groups",
		bin, "-test.run=^TestLedgerPruneChild$", "-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=/tmp", pruneChildEnv + "=" + base}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %v\n%s", uid, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestLedgerPruneChild") {
		t.Fatalf("the child did not run:\n%s", out)
	}
	if _, err := os.Lstat(roots); err != nil {
		t.Errorf("root's old day file was removed by uid %d: %v", uid, err)
	}
}

// TestLedgerPruneChild is TestLedgerPruneAsOrdinaryUser's half that runs
// as the ordinary account.
func TestLedgerPruneChild(t *testing.T) {
	base := os.Getenv(pruneChildEnv)
	if base == "" {
		t.Skip("run by TestLedgerPruneAsOrdinaryUser")
	}
	if os.Geteuid() == 0 {
		t.Fatal("the child runs as root")
	}
	checkPrune(t, base, "2020-02-02.jsonl")
}
