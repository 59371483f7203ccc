package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The model reads why a command was blocked even where the refusal is
// hard to parse: paths holding a comma or a space (judged whole, not cut
// at the comma into "write outside the workspace: /tmp/a"), coreutils'
// ‘curly quotes’ of a UTF-8 locale, and a symlink in the workspace that
// points outside (bash names only the link). Each runs for real in the
// sandbox. curl's refusal to a non-loopback address ("Couldn't connect
// to server") is the sandbox's network too.
func TestExplainAwkwardRefusals(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8") // coreutils quotes ‘like this’
	base := filepath.Join(t.TempDir(), "a, b c")
	f := fixture{home: filepath.Join(base, "home"), ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{filepath.Join(f.home, ".ssh"), filepath.Join(f.ws, ".git", "hooks"), f.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range map[string]string{
		filepath.Join(f.home, ".ssh", "id_ed25519"): "SECRET\n",
		filepath.Join(f.home, ".bashrc"):            "# rc\n",
		filepath.Join(f.outside, "f"):               "outside\n",
	} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newSandbox(t, f, Settings{})
	if !s.Status().Active {
		t.Fatalf("sandbox not active: %s", s.Status().Summary())
	}
	for _, c := range []struct{ name, command, explain string }{
		{"comma and space, a start-up file", `echo x >> ~/.bashrc`,
			"blocked by the sandbox: write to a protected start-up or configuration file: " + filepath.Join(f.home, ".bashrc")},
		{"comma and space, a secret store", `cat ~/.ssh/id_ed25519`,
			"blocked by the sandbox: read of a secret store the sandbox hides: " + filepath.Join(f.home, ".ssh", "id_ed25519")},
		{"curly quotes", `mkdir ~/newdir`,
			"blocked by the sandbox: write outside the workspace: " + filepath.Join(f.home, "newdir")},
		{"a link to an outside file", `ln -s "` + filepath.Join(f.outside, "f") + `" link-file && echo x > link-file`,
			"blocked by the sandbox: write outside the workspace: " + filepath.Join(f.outside, "f")},
		{"curl names the address, not the cause", `curl -sS -m 3 http://192.0.2.1/`,
			"blocked by the sandbox: network access outside this machine"},
		{"a link to the outside dir", `ln -s "` + f.outside + `" link-dir && echo x > link-dir/new`,
			"blocked by the sandbox: write outside the workspace: " + filepath.Join(f.outside, "new")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath("curl"); err != nil && strings.HasPrefix(c.command, "curl") {
				t.Skip("no curl")
			}
			out, code, explain := run(t, s, f, c.command)
			if code == 0 {
				t.Fatalf("%s succeeded in the sandbox: %q", c.command, out)
			}
			if !strings.Contains(explain, c.explain) {
				t.Errorf("output %q\nexplained as %q\nwant %q", out, explain, c.explain)
			}
		})
	}
}
