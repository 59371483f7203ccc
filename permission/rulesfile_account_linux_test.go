package permission

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/ordinaryaccount"
)

// rulesChildEnv names the directory the parent prepared, for the copy of
// this test binary that runs as an ordinary account.
const rulesChildEnv = "AGENT_LSP_RULES_CHILD_DIR"

// TestRulesFilesOfAnotherAccount runs as root and as an ordinary account
// (AGENT_LSP_TEST_USER, else nobody): a user rules file another account
// owns decides nothing, an unreadable one says why, and the account's own
// file works.
func TestRulesFilesOfAnotherAccount(t *testing.T) {
	acct := ordinaryaccount.Lookup(t)
	uid, gid := acct.UID, acct.GID
	dir, err := os.MkdirTemp("", "rules-accounts-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	rules := `{"allow": ["run_bash: make"]}`
	writeFile(t, filepath.Join(dir, "roots.json"), rules, 0o644)      // root's, readable
	writeFile(t, filepath.Join(dir, "secret.json"), rules, 0o600)     // root's, unreadable by others
	writeFile(t, filepath.Join(dir, "theirs.json"), rules, 0o600)     // the ordinary account's
	writeFile(t, filepath.Join(dir, "unreadable.json"), rules, 0o000) // theirs, but mode 0
	for _, name := range []string{"theirs.json", "unreadable.json"} {
		if err := os.Chown(filepath.Join(dir, name), uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	// As root: the ordinary account's file is not root's rules.
	r := NewRuleFiles(filepath.Join(dir, "theirs.json"), "").For("")
	if got := decided(r, bashCall("make", Medium)); got != "ask" {
		t.Errorf("root followed uid %d's rules file: %s", uid, got)
	}
	if errs := r.List().Files[0].Errors; len(errs) != 1 || !strings.Contains(errs[0], "owned by uid "+strconv.Itoa(uid)) {
		t.Errorf("root reading uid %d's file: %v", uid, errs)
	}
	if got := decided(NewRuleFiles(filepath.Join(dir, "roots.json"), "").For(""), bashCall("make", Medium)); got != "allow" {
		t.Errorf("root's own rules file: %s", got)
	}

	bin := ordinaryaccount.CopyTestBinary(t, dir, "permission.test")
	acct.Run(t, bin, asOrdinaryAccount, []string{"HOME=/root", "TMPDIR=" + dir, rulesChildEnv + "=" + dir})
}

// asOrdinaryAccount are the tests the ordinary account runs too: its own
// half, and the files' trust path (a symlink out of the workspace, a huge
// file, malformed JSON, an untrusted workspace file, saving and removing).
var asOrdinaryAccount = []string{"TestRulesFilesAsOrdinaryAccount", "TestHugeAndSymlinkedOutRulesFilesAreRefused",
	"TestBrokenFilesSayWhyAndOthersApply", "TestWorkspaceRulesOnlyNarrowUntilTrusted", "TestSaveSurvivesRestartAndRemove",
	"TestAlwaysAllowSavesAndTheNextPolicyDoesNotAsk"}

// TestRulesFilesAsOrdinaryAccount is the ordinary account's half of
// TestRulesFilesOfAnotherAccount (skipped when run alone).
func TestRulesFilesAsOrdinaryAccount(t *testing.T) {
	dir := os.Getenv(rulesChildEnv)
	if dir == "" {
		t.Skip("run by TestRulesFilesOfAnotherAccount")
	}
	if os.Getuid() == 0 {
		t.Fatal("the child runs as root")
	}
	for name, want := range map[string]string{"roots.json": "owned by uid 0", "secret.json": "owned by uid 0",
		"unreadable.json": "permission denied"} {
		r := NewRuleFiles(filepath.Join(dir, name), "").For("")
		if got := decided(r, bashCall("make", Medium)); got != "ask" {
			t.Errorf("%s decided for uid %d: %s", name, os.Getuid(), got)
		}
		if errs := r.List().Files[0].Errors; len(errs) != 1 || !strings.Contains(errs[0], want) {
			t.Errorf("%s: %v, want %q", name, errs, want)
		}
	}
	// HOME=/root: the default file is another account's, unreadable.
	if def, err := DefaultRulesFile(); err == nil {
		r := NewRuleFiles(def, "").For("")
		if got := decided(r, bashCall("make", Medium)); got != "ask" {
			t.Errorf("root's config dir decided for uid %d: %s", os.Getuid(), got)
		}
		if err := r.Save(SourceUser, "run_bash: make"); err == nil {
			t.Errorf("saved a rule into root's config dir %s", def)
		}
	}
	r := NewRuleFiles(filepath.Join(dir, "theirs.json"), "").For("")
	if got := decided(r, bashCall("make", Medium)); got != "allow" {
		t.Errorf("own rules file: %s (%v)", got, r.List().Files)
	}
	mine := NewRuleFiles(filepath.Join(dir, "new", "permissions.json"), filepath.Join(dir, "state")).For("")
	if err := mine.Save(SourceUser, "run_bash: go test ./..."); err != nil {
		t.Fatal(err)
	}
	if got := decided(mine, bashCall("go test ./...", Medium)); got != "allow" {
		t.Errorf("saved rule: %s", got)
	}
}
