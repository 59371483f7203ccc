package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/ordinaryaccount"
)

// pruneChildEnv names the directory the root parent prepared, for the
// copy of this test binary that runs as an ordinary account.
const pruneChildEnv = "AGENT_LSP_LEDGER_PRUNE_CHILD"

// TestLedgerPruneAsOrdinaryUser runs the prune as an ordinary account
// (AGENT_LSP_TEST_USER, else nobody) on a ledger directory it owns, in
// which root left an old day file: root's file stays, although the
// account may unlink it (it owns the directory).
func TestLedgerPruneAsOrdinaryUser(t *testing.T) {
	acct := ordinaryaccount.Lookup(t)
	top, err := os.MkdirTemp("", "ledger-prune-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := ordinaryaccount.CopyTestBinary(t, top, "agent.test")
	base, spend := filepath.Join(top, "home"), filepath.Join(top, "home", "spend")
	if err := os.MkdirAll(spend, 0o700); err != nil {
		t.Fatal(err)
	}
	roots := filepath.Join(spend, "2020-02-02.jsonl")
	if err := os.WriteFile(roots, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{base, spend} {
		if err := os.Chown(d, acct.UID, acct.GID); err != nil {
			t.Fatal(err)
		}
	}
	acct.Run(t, bin, []string{"TestLedgerPruneChild"}, []string{"HOME=/nonexistent", "TMPDIR=/tmp", pruneChildEnv + "=" + base})
	if _, err := os.Lstat(roots); err != nil {
		t.Errorf("root's old day file was removed by uid %d: %v", acct.UID, err)
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
