package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With the workspace at $HOME, the files that run code later stay
// read-only to commands, the same set the risk rules call code-running:
// an editor's start-up file and git's config where XDG_CONFIG_HOME moved
// it (inline code rated below HIGH in the sandbox could otherwise plant
// code there without a popup). An ordinary file of the same home stays
// writable.
func TestSandboxHomeWorkspaceKeepsStartupFilesReadOnly(t *testing.T) {
	f := newFixture(t)
	xdg := filepath.Join(f.home, ".xdg-config")
	t.Setenv("XDG_CONFIG_HOME", xdg)
	files := []string{".vimrc", ".config/nvim/init.lua", ".emacs.d/init.el", ".xdg-config/git/config", ".xdg-config/systemd/user/a.service", "notes.txt"}
	for _, p := range files {
		abs := filepath.Join(f.home, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte("own\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f.ws = f.home
	s := newSandbox(t, f, Settings{})
	if !s.Status().Active {
		t.Fatalf("sandbox not active: %s", s.Status().Summary())
	}
	for _, p := range files {
		abs := filepath.Join(f.home, p)
		out, code, explain := run(t, s, f, "echo planted >> '"+abs+"'")
		data, _ := os.ReadFile(abs)
		if p == "notes.txt" {
			if code != 0 || string(data) != "own\nplanted\n" {
				t.Errorf("an ordinary file of the home workspace: exit %d %q, holds %q", code, out, data)
			}
			continue
		}
		if code == 0 || string(data) != "own\n" {
			t.Errorf("%s was written in the sandbox (exit %d): %q", p, code, data)
		}
		if !strings.Contains(explain, "write to a protected start-up or configuration file: "+abs) {
			t.Errorf("%s: explained as %q", p, explain)
		}
	}
	// The home is split around those files: a new entry right in it is
	// refused, and the model is told why; tar's refusal names the store.
	for _, c := range []struct{ command, explain string }{
		{"mkdir ~/newdir", "new entries cannot be created in " + f.home},
		{`tar cf "$TMPDIR/x.tar" .ssh`, "read of a secret store the sandbox hides: " + filepath.Join(f.home, ".ssh", "id_ed25519")},
	} {
		out, code, explain := run(t, s, f, c.command)
		if code == 0 || !strings.Contains(explain, c.explain) {
			t.Errorf("%s: exit %d %q, explained as %q, want %q", c.command, code, out, explain, c.explain)
		}
	}
}
