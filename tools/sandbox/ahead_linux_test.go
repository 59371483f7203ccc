package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// spareBuilt waits until the next command's ruleset was built ahead and
// returns its descriptor.
func spareBuilt(t testing.TB, s *Sandbox) int {
	t.Helper()
	fd := -1
	await.Poll(t, 10*time.Second, "the next command's ruleset built ahead", func() bool {
		s.reads.mu.Lock()
		defer s.reads.mu.Unlock()
		if sp := s.reads.ahead.spare; sp != nil {
			fd = sp.fd
		}
		return fd >= 0
	})
	return fd
}

// A command takes the ruleset built ahead when nothing changed since.
func TestRulesetBuiltAheadIsTaken(t *testing.T) {
	quietTempDir(t)
	f := newFixture(t)
	s := newSandbox(t, f, Settings{WritableDirs: []string{f.outside}})
	if st := s.Status(); !st.Active {
		t.Skipf("no sandbox here: %s", st.Summary())
	}
	settledReads(t, s, f)
	// The spare is marked through its open file description (a status
	// flag, meaningless to a ruleset): a ruleset built instead may get
	// the same descriptor number, not the mark.
	spare := spareBuilt(t, s) // nothing else runs a command: it stays
	if _, err := unix.FcntlInt(uintptr(spare), unix.F_SETFL, unix.O_NONBLOCK); err != nil {
		t.Fatal(err)
	}
	l, err := s.prepare("true", f.ws, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if fl, err := unix.FcntlInt(l.Ruleset.Fd(), unix.F_GETFL, 0); err != nil || fl&unix.O_NONBLOCK == 0 {
		t.Fatalf("the command's ruleset is not the one built ahead (flags %#x, %v)", fl, err)
	}
}

// A ruleset built ahead holds the inodes its write grants named then: a
// writable directory renamed away since (here into a directory commands
// may only read) must not stay writable through it, and the directory
// now at the granted path must be writable, as with a ruleset built for
// the command.
func TestRulesetBuiltAheadFollowsWriteGrants(t *testing.T) {
	testRulesetBuiltAheadFollowsWriteGrants(t)
}

// TestRulesetBuiltAheadFollowsWriteGrantsAsNobody runs it as an ordinary
// user.
func TestRulesetBuiltAheadFollowsWriteGrantsAsNobody(t *testing.T) {
	out := runAsNobody(t, "^TestRulesetBuiltAheadFollowsWriteGrants$")
	if !bytes.Contains(out, []byte("--- PASS: TestRulesetBuiltAheadFollowsWriteGrants")) {
		t.Fatalf("as nobody:\n%s", out)
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 3))
}

func testRulesetBuiltAheadFollowsWriteGrants(t *testing.T) {
	quietTempDir(t)
	f := newFixture(t)
	granted := filepath.Join(f.outside, "granted")
	moved := filepath.Join(f.outside, "moved")
	if err := os.Mkdir(granted, 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t, f, Settings{WritableDirs: []string{granted}})
	if st := s.Status(); !st.Active {
		t.Fatalf("no sandbox here: %s", st.Summary())
	}
	settledReads(t, s, f)
	spareBuilt(t, s)
	if err := os.Rename(granted, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(granted, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code, _ := run(t, s, f, "echo x > "+filepath.Join(moved, "f")); code == 0 {
		t.Fatalf("a writable directory renamed away stayed writable through the ruleset built ahead: %q", out)
	}
	if out, code, _ := run(t, s, f, "echo y > "+filepath.Join(granted, "f")); code != 0 {
		t.Fatalf("the directory now at the granted path is not writable: exit %d, %q", code, out)
	}
}

// A ruleset built ahead is not taken once a directory its read grants
// split has changed: a readable home directory renamed onto a secret
// store's path after the build stays unreadable (the rule on its inode
// is in the ruleset built ahead).
func TestRulesetBuiltAheadFollowsTheHome(t *testing.T) { testRulesetBuiltAheadFollowsTheHome(t) }

// TestRulesetBuiltAheadFollowsTheHomeAsNobody runs it as an ordinary
// user.
func TestRulesetBuiltAheadFollowsTheHomeAsNobody(t *testing.T) {
	out := runAsNobody(t, "^TestRulesetBuiltAheadFollowsTheHome$")
	if !bytes.Contains(out, []byte("--- PASS: TestRulesetBuiltAheadFollowsTheHome")) {
		t.Fatalf("as nobody:\n%s", out)
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 3))
}

func testRulesetBuiltAheadFollowsTheHome(t *testing.T) {
	quietTempDir(t)
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	if st := s.Status(); !st.Active {
		t.Fatalf("no sandbox here: %s", st.Summary())
	}
	secret := "AWS-SECRET-" + f.secret
	plain, store := filepath.Join(f.home, "plain"), filepath.Join(f.home, ".aws")
	writeSecret(t, filepath.Join(plain, "credentials"), secret)
	settledReads(t, s, f)
	if out, code, _ := run(t, s, f, "cat "+filepath.Join(plain, "credentials")); code != 0 || !strings.Contains(out, secret) {
		t.Fatalf("a plain home directory is not readable: %q", out)
	}
	spareBuilt(t, s)
	if err := os.Rename(plain, store); err != nil {
		t.Fatal(err)
	}
	if out, code, _ := run(t, s, f, "cat "+filepath.Join(store, "credentials")); code == 0 || strings.Contains(out, secret) {
		t.Fatalf("a readable directory renamed onto a secret store's path was read through the ruleset built ahead: %q", out)
	}
}
