package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

// TestProtectedWorkspaceFiles: in a workspace that holds none of them,
// a command creates each protected file (its directory first where it
// has one); in a workspace that holds them all, it overwrites, appends
// to, removes and moves each. Every attempt is blocked and explained,
// nothing is left behind or changed, and an ordinary file beside them
// stays writable. With namespaces and with Landlock alone.
func TestProtectedWorkspaceFiles(t *testing.T) {
	for _, m := range []struct {
		name string
		st   Settings
	}{{"namespaces", Settings{}}, {"landlock only", Settings{NoNamespaces: true}}} {
		t.Run(m.name, func(t *testing.T) {
			for _, existing := range []bool{false, true} {
				testProtectedFiles(t, m.st, existing)
			}
		})
	}
}

func testProtectedFiles(t *testing.T, st Settings, existing bool) {
	f := newFixture(t)
	samples := fixturetest.ProtectedFiles()
	const own = "{\"own\": true}\n"
	if existing {
		for _, p := range samples {
			abs := filepath.Join(f.ws, p)
			if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(abs, []byte(own), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	s := newSandbox(t, f, st)
	if !s.Status().Active {
		t.Skipf("sandbox not active: %s", s.Status().Summary())
	}
	for _, p := range samples {
		var commands []string
		if existing {
			commands = []string{"echo '{\"run\": 1}' > " + p, "echo x >> " + p, "rm -f " + p,
				"mv " + p + " " + p + ".old", "sed -i s/own/run/ " + p}
		} else {
			create := "echo '{\"run\": 1}' > " + p
			if d := filepath.Dir(p); d != "." {
				create = "mkdir -p " + d + " && " + create
			}
			commands = []string{create}
		}
		for _, c := range commands {
			out, code, explain := runPiped(t, s, f, c)
			if strings.HasPrefix(c, "sed -i") {
				// sed's refusal names its temporary file, not the one
				// it replaces: refused, not explained.
				explain += fmt.Sprintf("blocked by the sandbox? exit %d", code)
				if code == 0 {
					explain = ""
				}
			}
			if !strings.Contains(explain, "blocked by the sandbox") {
				t.Errorf("%s: exit %d %q, explained %q: want blocked by the sandbox", c, code, out, explain)
			}
			abs := filepath.Join(f.ws, p)
			got, err := os.ReadFile(abs)
			switch {
			case existing && string(got) != own:
				t.Errorf("%s: %s holds %q (%v), want it unchanged", c, p, got, err)
			case !existing && !os.IsNotExist(err):
				t.Errorf("%s: %s was left behind: %q %v", c, p, got, err)
			}
			if top := strings.Split(p, "/")[0]; !existing && top != p {
				if _, err := os.Lstat(filepath.Join(f.ws, top)); !os.IsNotExist(err) {
					t.Errorf("%s: its directory %s was left behind (%v)", c, top, err)
				}
			}
		}
	}
	// Ordinary files beside them: a subdirectory's (and, with
	// namespaces, the root's; Landlock alone cannot create entries in a
	// root split around protected files, as for git's).
	ordinary := "echo ok > src/new.txt && echo ok >> src/main.go"
	if !st.NoNamespaces {
		ordinary += " && echo ok > notes.txt && mkdir -p vscode && echo ok > vscode/tasks.json"
	}
	if out, code, explain := runPiped(t, s, f, ordinary); code != 0 {
		t.Errorf("ordinary files: exit %d %q %s", code, out, explain)
	}
}

// The user's entries are protected as the built-in ones; nothing in the
// workspace changes the list.
func TestProtectedWorkspaceFilesExtended(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(filepath.Join(f.ws, "deploy.sh"), []byte("echo deploy\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t, f, Settings{ProtectedFiles: []string{"deploy.sh", "ops/"}})
	if !s.Status().Active {
		t.Skipf("sandbox not active: %s", s.Status().Summary())
	}
	for _, c := range []string{"echo evil >> deploy.sh", "mkdir ops && echo x > ops/run.sh && sleep 10"} {
		out, code, explain := runPiped(t, s, f, c)
		if !strings.Contains(explain, "protected workspace file") {
			t.Errorf("%s: exit %d %q, explained %q", c, code, out, explain)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(f.ws, "deploy.sh")); !bytes.Equal(b, []byte("echo deploy\n")) {
		t.Errorf("deploy.sh: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(f.ws, "ops")); !os.IsNotExist(err) {
		t.Errorf("ops was left behind: %v", err)
	}
	if _, err := New(Settings{ProtectedFiles: []string{"../outside"}}, []string{f.ws}); err == nil {
		t.Error("an entry outside the workspace was accepted")
	}
}

// runPiped runs command as the process runner does: its output goes
// through a pipe read to its end, which comes only once the command and
// the tripwire (which holds a copy of the pipe until its last sweep) are
// done; what the sandbox explains is asked for a failed command or one
// that tripped the tripwire, even with status 0.
func runPiped(t *testing.T, s *Sandbox, f fixture, command string) (string, int, string) {
	t.Helper()
	cmd, release, err := s.Command(command, f.ws, append(os.Environ(), "HOME="+f.home))
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread() // Pdeathsig, as the runner
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		release()
		started <- err
		if err == nil {
			_ = cmd.Wait()
		}
	}()
	if err := <-started; err != nil {
		t.Fatal(err)
	}
	w.Close()
	_ = r.SetReadDeadline(time.Now().Add(30 * time.Second))
	out, err := io.ReadAll(r)
	if err != nil {
		_ = cmd.Process.Kill()
		t.Errorf("%s: reading its output: %v", command, err)
	}
	<-done
	code, explain := cmd.ProcessState.ExitCode(), ""
	if code != 0 || s.Tripped(string(out)) {
		explain = s.Explain(string(out))
	}
	return string(out), code, explain
}

// TestProtectedWorkspaceFilesAsNobody runs them again as an ordinary user.
func TestProtectedWorkspaceFilesAsNobody(t *testing.T) {
	out := runAsNobody(t, "^(TestProtectedWorkspaceFiles|TestProtectedWorkspaceFilesExtended)$")
	for _, name := range []string{"TestProtectedWorkspaceFiles", "TestProtectedWorkspaceFilesExtended"} {
		if !bytes.Contains(out, []byte("--- PASS: "+name+" ")) {
			t.Fatalf("%s did not pass as nobody:\n%s", name, out)
		}
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 3))
}
