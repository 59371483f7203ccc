package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	want := spareBuilt(t, s)
	l, err := s.prepare("true", f.ws, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	if got := int(l.Ruleset.Fd()); got != want {
		t.Fatalf("the command's ruleset is fd %d, not the one built ahead (%d)", got, want)
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
