package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// settledReads runs commands until the read rules were kept from one
// command to the next (the home's last change is older than its file
// system's timestamp granularity): from then on they are reused.
func settledReads(t *testing.T, s *Sandbox, f fixture) *readGrants {
	t.Helper()
	var kept *readGrants
	await.Poll(t, 10*time.Second, "the read rules kept between commands", func() bool {
		s.reads.mu.Lock()
		before := s.reads.cur
		s.reads.mu.Unlock()
		if _, code, _ := run(t, s, f, "true"); code != 0 {
			t.Fatal("true failed in the sandbox")
		}
		s.reads.mu.Lock()
		defer s.reads.mu.Unlock()
		kept = s.reads.cur
		return before != nil && before == kept
	})
	return kept
}

// The read rules are computed once and kept (no walk of the home per
// command), yet a secret store that appears afterwards is as unreadable
// as if they were computed for the command: created in the home, or a
// directory commands could read renamed onto a store's path (Landlock
// rules follow inodes, so a kept rule on that directory would otherwise
// still grant it).
func TestReadRulesFollowTheHome(t *testing.T) { testReadRulesFollowTheHome(t) }

// TestReadRulesFollowTheHomeAsNobody runs it as an ordinary user.
func TestReadRulesFollowTheHomeAsNobody(t *testing.T) {
	out := runAsNobody(t, "^TestReadRulesFollowTheHome$")
	if !bytes.Contains(out, []byte("--- PASS: TestReadRulesFollowTheHome")) {
		t.Fatalf("as nobody:\n%s", out)
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 3))
}

func testReadRulesFollowTheHome(t *testing.T) {
	quietTempDir(t)
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	if st := s.Status(); !st.Active {
		t.Fatalf("no sandbox here: %s", st.Summary())
	}
	secret := "AWS-SECRET-" + f.secret
	readable := func(path string) (string, bool) {
		out, code, _ := run(t, s, f, "cat "+path)
		return out, code == 0
	}

	plain := filepath.Join(f.home, "plain")
	writeSecret(t, filepath.Join(plain, "credentials"), secret)
	settledReads(t, s, f)
	if out, ok := readable(filepath.Join(f.home, "notes.txt")); !ok {
		t.Fatalf("a plain home file is not readable: %q", out)
	}

	// A store created after the rules were kept.
	store := filepath.Join(f.home, ".aws")
	writeSecret(t, filepath.Join(store, "credentials"), secret)
	if out, ok := readable(filepath.Join(store, "credentials")); ok || strings.Contains(out, secret) {
		t.Fatalf("a secret store created after the rules were computed was read: %q", out)
	}
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}

	// A readable directory, granted by a kept rule, renamed onto the
	// store's path.
	settledReads(t, s, f)
	if out, ok := readable(filepath.Join(plain, "credentials")); !ok || !strings.Contains(out, secret) {
		t.Fatalf("a plain home directory is not readable: %q", out)
	}
	if err := os.Rename(plain, store); err != nil {
		t.Fatal(err)
	}
	if out, ok := readable(filepath.Join(store, "credentials")); ok || strings.Contains(out, secret) {
		t.Fatalf("a readable directory renamed onto a secret store's path was read through a kept rule: %q", out)
	}
}

// quietTempDir makes t's temp dirs in /var/tmp, which little else uses:
// the rules split every directory above the fixture's home, and /tmp
// changes all the time on a shared machine (the rules are then computed
// again for every command, and never kept).
func quietTempDir(t testing.TB) {
	if fi, err := os.Stat("/var/tmp"); err == nil && fi.IsDir() {
		t.Setenv("TMPDIR", "/var/tmp")
	}
}

func writeSecret(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
