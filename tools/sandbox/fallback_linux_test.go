package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Forced unavailable (as on a kernel without Landlock): the status says
// so and why, commands run unconfined, nothing claims a block.
func TestSandboxUnavailableFallsBack(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{ForceUnavailable: true})
	st := s.Status()
	if st.Active || st.Unavailable == "" || !strings.Contains(st.Summary(), "sandbox unavailable") {
		t.Fatalf("status %+v, summary %q: want inactive with a reason", st, st.Summary())
	}
	target := filepath.Join(f.outside, "written")
	out, code, explain := run(t, s, f, "echo x > "+target+" && echo done")
	if code != 0 || !strings.Contains(out, "done") || explain != "" {
		t.Fatalf("exit %d, output %q, explanation %q: want an unconfined success", code, out, explain)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatal(err)
	}
	if s.Explain("touch: cannot touch '/etc/x': Permission denied") != "" {
		t.Error("an inactive sandbox explained a refusal")
	}
}

// Without user namespaces Landlock alone still confines writes and hides
// the secrets; git metadata (.git/hooks, .git/config, ...) stays
// read-only by being left out of the grants (so new files right in the
// workspace root cannot be created: a documented limit), TCP is refused
// by Landlock, and the
// status lists those limits.
func TestSandboxWithoutNamespaces(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{NoNamespaces: true})
	st := s.Status()
	if !st.Active || st.Namespaces || len(st.Limits) < 2 {
		t.Fatalf("status %+v: want active, no namespaces, limits listed", st)
	}
	t.Log(st.Summary())
	for _, c := range []struct{ command, explain string }{
		{"echo x > " + filepath.Join(f.outside, "f"), "write outside the workspace"},
		{"cat ~/.ssh/id_ed25519", "read of a secret store"},
		{"echo evil > .git/hooks/pre-commit", "git metadata is read-only in the sandbox"},
		{"echo evil >> .git/config", "git metadata is read-only in the sandbox"},
		{"exec 3<>/dev/tcp/192.0.2.1/80", "network access outside this machine"},
		{"exec 3<>/dev/tcp/127.0.0.1/9", "network access outside this machine"},
	} {
		out, code, explain := run(t, s, f, c.command)
		if code == 0 || strings.Contains(out, f.secret) || !strings.Contains(explain, c.explain) {
			t.Errorf("%s: exit %d, output %q, explanation %q; want refused, explained with %q", c.command, code, out, explain, c.explain)
		}
	}
	out, code, _ := run(t, s, f, "echo ok > src/new.go && cat src/new.go && echo t > \"$TMPDIR/t\"")
	if code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("write in a workspace subdirectory: exit %d, output %q", code, out)
	}
	if _, code, _ := run(t, s, f, "echo x > rootfile"); code == 0 {
		t.Error("a new file right in the workspace root was created: the documented limit changed, update the docs")
	}
}

// read-only: the workspace is readable, not writable; the temp dir is.
func TestSandboxReadOnly(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{Mode: ModeReadOnly})
	out, code, explain := run(t, s, f, "cat src/main.go && echo x >> src/main.go")
	if code == 0 || !strings.Contains(out, "package main") || !strings.Contains(explain, "write in the workspace (sandbox mode read-only)") {
		t.Errorf("exit %d, output %q, explanation %q", code, out, explain)
	}
	if out, code, _ := run(t, s, f, "echo t > \"$TMPDIR/t\" && cat \"$TMPDIR/t\""); code != 0 || !strings.Contains(out, "t") {
		t.Errorf("temp dir in read-only mode: exit %d, output %q", code, out)
	}
}

// network deny: not even loopback.
func TestSandboxNetworkDeny(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{Network: NetworkDeny})
	out, code, explain := run(t, s, f, envLoopbackHelper+"=1 "+testBinary())
	if code == 0 || strings.Contains(out, "loopback ok") {
		t.Fatalf("loopback worked with network deny: %q", out)
	}
	if !s.Status().ContainsNet() {
		t.Error("network deny does not count as contained")
	}
	t.Logf("output %q, explanation %q", out, explain)
}

// Extra writable dirs are writable; a relative one is taken from the
// workspace root, ~/ from the home directory.
func TestSandboxWritableDirs(t *testing.T) {
	f := newFixture(t)
	cache := filepath.Join(f.home, ".cache", "go-build")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t, f, Settings{WritableDirs: []string{"~/.cache/go-build", f.outside}})
	if out, code, _ := run(t, s, f, "echo c > ~/.cache/go-build/x && echo o > "+filepath.Join(f.outside, "y")+" && echo ok"); code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("extra writable dirs: exit %d, output %q", code, out)
	}
}

// Close removes the private temp dir with what commands left there.
func TestSandboxCloseRemovesTempDir(t *testing.T) {
	f := newFixture(t)
	s, err := New(Settings{Home: f.home}, []string{f.ws})
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, f, "echo t > \"$TMPDIR/left\"")
	tmp := s.Status().TmpDir
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Fatalf("temp dir %s still there: %v", tmp, err)
	}
}

// Everyday git works in the sandbox: status, add and commit write the
// index and objects; only hooks and config are read-only.
func TestSandboxGitCommit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	f := newFixture(t)
	repo := filepath.Join(f.ws, "repo")
	if out, err := exec.Command(git, "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	s, err := New(Settings{Home: f.home}, []string{repo})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f.ws = repo
	out, code, explain := run(t, s, f, "echo hi > a.txt && git add a.txt && git -c user.name=n -c user.email=n@example.com commit -qm first && git log --oneline | wc -l")
	if code != 0 || strings.TrimSpace(out) != "1" {
		t.Fatalf("git in the sandbox: exit %d, output %q, explanation %q", code, out, explain)
	}
	if _, code, explain := run(t, s, f, "git config core.fsmonitor evil"); code == 0 || !strings.Contains(explain, ".git/config") {
		t.Errorf("git config wrote .git/config: exit %d, explanation %q", code, explain)
	}
}

// The status is honest about the daemon's /proc entry without a PID
// namespace: either a command cannot read it, or the limit is listed.
func TestSandboxStatusTellsTheEnvironLimit(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{NoNamespaces: true})
	out, code, _ := run(t, s, f, "cat /proc/$PPID/environ | head -c 64")
	readable := code == 0 && strings.Contains(out, "=")
	listed := strings.Contains(strings.Join(s.Status().Limits, "\n"), "environ")
	if readable != listed {
		t.Errorf("environ readable %v, limit listed %v: the status must say what holds", readable, listed)
	}
	t.Logf("Landlock alone on this kernel: the daemon's environ readable = %v", readable)
}
