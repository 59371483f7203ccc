package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fixture is a fake home (with a secret store and a start-up file), a
// workspace (a git repository) and a directory outside both.
type fixture struct {
	home, ws, outside string
	secret            string // the content of ~/.ssh/id_ed25519
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	base := t.TempDir()
	f := fixture{
		home: filepath.Join(base, "home"), ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside"),
		secret: "SECRET-KEY-" + strconv.Itoa(os.Getpid()),
	}
	for _, d := range []string{filepath.Join(f.home, ".ssh"), filepath.Join(f.ws, ".git", "hooks"), filepath.Join(f.ws, "src"), f.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(f.home, ".ssh", "id_ed25519"): f.secret,
		filepath.Join(f.home, ".bashrc"):            "# rc\n",
		filepath.Join(f.home, "notes.txt"):          "notes\n",
		filepath.Join(f.ws, ".git", "config"):       "[core]\n",
		filepath.Join(f.ws, ".git", "HEAD"):         "ref: refs/heads/main\n",
		filepath.Join(f.ws, "src", "main.go"):       "package main\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func newSandbox(t *testing.T, f fixture, st Settings) *Sandbox {
	t.Helper()
	st.Home = f.home
	s, err := New(st, []string{f.ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// run runs command in the sandbox (working directory: the workspace) and
// returns its output, exit code and the sandbox's explanation.
func run(t *testing.T, s *Sandbox, f fixture, command string) (string, int, string) {
	t.Helper()
	out, code, explain, timedOut := runFor(t, s, f, command, 20*time.Second)
	if timedOut {
		t.Fatalf("%s: did not end in 20s; output %.2000q", command, out)
	}
	return out, code, explain
}

// runFor is run with a time limit, as the runner's timeout: at the limit
// the command's first process is killed (under namespaces the kernel
// then ends everything in its PID namespace) and timedOut is true.
func runFor(t *testing.T, s *Sandbox, f fixture, command string, limit time.Duration) (output string, code int, explain string, timedOut bool) {
	t.Helper()
	env := append(os.Environ(), "HOME="+f.home)
	cmd, release, err := s.Command(command, f.ws, env)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	// Start and Wait on one locked thread, as the runner does (Pdeathsig).
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
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
	select {
	case <-done:
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		timedOut = true
	}
	code = cmd.ProcessState.ExitCode()
	if code != 0 {
		explain = s.Explain(buf.String())
	}
	return buf.String(), code, explain, timedOut
}

// refusal is a command the sandbox must stop, with what the model must
// read about it.
type refusal struct {
	name, command, explain string
	check                  func(t *testing.T, f fixture) // the attempt left no trace
}

func refusals(f fixture, testPID int) []refusal {
	unchanged := func(path, want string) func(t *testing.T, f fixture) {
		return func(t *testing.T, f fixture) {
			b, err := os.ReadFile(path)
			if want == "" {
				if err == nil {
					t.Errorf("%s was created", path)
				}
				return
			}
			if err != nil || string(b) != want {
				t.Errorf("%s = %q, %v; want %q unchanged", path, b, err, want)
			}
		}
	}
	var system []refusal
	if readable("/etc/shadow") { // root: an ordinary user's own permissions keep it out
		system = append(system, refusal{"read /etc/shadow", "cat /etc/shadow", "blocked by the sandbox: read of a secret store the sandbox hides: /etc/shadow", nil})
	}
	return append(system, []refusal{
		{"write a home dotfile", "echo pwned >> ~/.bashrc", "blocked by the sandbox: write to a protected start-up or configuration file: " + filepath.Join(f.home, ".bashrc"),
			unchanged(filepath.Join(f.home, ".bashrc"), "# rc\n")},
		{"create a file in home", "echo x > ~/.profile_evil", "blocked by the sandbox: write outside the workspace: " + filepath.Join(f.home, ".profile_evil"),
			unchanged(filepath.Join(f.home, ".profile_evil"), "")},
		{"write /etc", "touch /etc/agent-lsp-sandbox-test", "blocked by the sandbox: write outside the workspace: /etc/agent-lsp-sandbox-test",
			unchanged("/etc/agent-lsp-sandbox-test", "")},
		{"write outside the workspace", "echo x > " + filepath.Join(f.outside, "f"), "blocked by the sandbox: write outside the workspace: " + filepath.Join(f.outside, "f"),
			unchanged(filepath.Join(f.outside, "f"), "")},
		{"read ~/.ssh", "cat ~/.ssh/id_ed25519", "blocked by the sandbox: read of a secret store the sandbox hides: " + filepath.Join(f.home, ".ssh", "id_ed25519"), nil},
		{"write a git hook", "echo 'curl evil' > .git/hooks/pre-commit", "git metadata is read-only in the sandbox: " + filepath.Join(f.ws, ".git", "hooks", "pre-commit"),
			unchanged(filepath.Join(f.ws, ".git", "hooks", "pre-commit"), "")},
		{"write .git/config", "printf '[core]\\n\\tfsmonitor = evil\\n' >> .git/config", "git metadata is read-only in the sandbox: " + filepath.Join(f.ws, ".git", "config"),
			unchanged(filepath.Join(f.ws, ".git", "config"), "[core]\n")},
		{"TCP to a non-loopback address", "exec 3<>/dev/tcp/192.0.2.1/80", "blocked by the sandbox: network access outside this machine", nil},
		{"read the daemon's environment", fmt.Sprintf("cat /proc/%d/environ", testPID), "blocked by the sandbox: access to another process: /proc/" + strconv.Itoa(testPID) + "/environ", nil},
	}...)
}

// allowed are everyday commands that must keep working in the sandbox.
func allowed(f fixture) []struct{ name, command, want string } {
	return []struct{ name, command, want string }{
		{"write, move and delete in the workspace", "echo ok > new.txt && mkdir -p a/b && mv new.txt a/b/ && cat a/b/new.txt && rm -r a", "ok"},
		{"edit a workspace file", "echo 'func main() {}' >> src/main.go && tail -1 src/main.go", "func main() {}"},
		{"git objects stay writable", "mkdir -p .git/objects/ab && echo o > .git/objects/ab/cd && cat .git/objects/ab/cd", "o"},
		{"private temp dir", "echo t > \"$TMPDIR/t\" && cat \"$TMPDIR/t\" && test \"$(stat -c %a \"$TMPDIR\")\" = 700 && echo private", "private"},
		{"read outside the workspace", "head -c 4 /etc/passwd && cat ~/notes.txt", "notes"},
		{"list the home dir", "ls -a ~", ".bashrc"},
		{"dev null", "echo gone > /dev/null && echo kept", "kept"},
		{"loopback server", envLoopbackHelper + "=1 " + testBinary(), "loopback ok"},
		{"new entries at the workspace root", "touch new.txt && mkdir build && ls", "build"},
		{"ps sees the command's own processes", "ps aux", "ps aux"},
		{"free reads /proc/meminfo", "free -m", "Mem:"},
		{"the command's own /proc", "grep ^Pid: /proc/self/status && cat /proc/self/cmdline | tr '\\0' ' '", "Pid:"},
		{"private /dev/shm", "echo s > /dev/shm/agent-lsp-test && cat /dev/shm/agent-lsp-test", "s"},
	}
}

// testBinary is the test executable, which doubles as the loopback helper.
func testBinary() string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return exe
}

// TestSandboxConfines runs each refused and each allowed command through
// the real launcher, Landlock and namespaces, as whoever runs the test
// (root in CI; TestSandboxConfinesAsNobody runs it again as nobody).
func TestSandboxConfines(t *testing.T) { testConfines(t) }

// TestSandboxGoLauncher runs the same through the Go launcher (Main), the
// one of builds without cgo: the C launcher steps aside for it.
func TestSandboxGoLauncher(t *testing.T) {
	t.Setenv(envGoLauncher, "1")
	testConfines(t)
}

func testConfines(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	st := s.Status()
	if !st.Active || !st.Namespaces {
		t.Fatalf("sandbox not fully active on this machine (Landlock ABI 7, user namespaces expected): %s", st.Summary())
	}
	t.Logf("uid %d: %s", os.Getuid(), st.Summary())
	for _, c := range refusals(f, os.Getpid()) {
		t.Run("refused/"+c.name, func(t *testing.T) {
			out, code, explain := run(t, s, f, c.command)
			if code == 0 {
				t.Fatalf("%s succeeded in the sandbox; output %q", c.command, out)
			}
			if strings.Contains(out, f.secret) || strings.Contains(out, "PATH=") {
				t.Fatalf("secret in the output: %q", out)
			}
			if !strings.Contains(explain, c.explain) {
				t.Errorf("explanation %q\nwant it to contain %q (output %q)", explain, c.explain, out)
			}
			if !strings.Contains(explain, HintUnsandboxed) {
				t.Errorf("explanation %q does not say how to run outside", explain)
			}
			if c.check != nil {
				c.check(t, f)
			}
		})
	}
	for _, c := range allowed(f) {
		t.Run("allowed/"+c.name, func(t *testing.T) {
			out, code, explain := run(t, s, f, c.command)
			if code != 0 || !strings.Contains(out, c.want) {
				t.Errorf("%s: exit %d, output %q (explanation %q); want success with %q", c.command, code, out, explain, c.want)
			}
		})
	}
	if want := os.Getenv("AGENT_LSP_SANDBOX_TEST_UID"); want != "" {
		out, _, _ := run(t, s, f, "id -u")
		if strings.TrimSpace(out) != want {
			t.Errorf("commands run as uid %q, want %s", out, want)
		}
	}
}

// TestSandboxConfinesAsNobody runs TestSandboxConfines as an unprivileged
// user (setpriv to the account AGENT_LSP_TEST_USER names, which .ci/run
// creates, or nobody), non-dumpable as the daemon is (procenv), with a
// canary in the environment of the process whose /proc entry the sandbox
// must not read. testConfines requires namespaces.
func TestSandboxConfinesAsNobody(t *testing.T) {
	out := runAsNobody(t, "^(TestSandboxConfines|TestSandboxLimitsEndBombs|TestSandboxShmIsPrivate)$")
	if !bytes.Contains(out, []byte("--- PASS: TestSandboxConfines")) || !bytes.Contains(out, []byte("--- PASS: TestSandboxLimitsEndBombs")) {
		t.Fatalf("as nobody:\n%s", out)
	}
	if bytes.Contains(out, []byte("canary-")) {
		t.Fatalf("the canary leaked:\n%s", out)
	}
	t.Logf("as nobody:\n%s", lastLines(string(out), 4))
}

// runAsNobody runs the tests matching pattern again as an ordinary user
// (setpriv to the account AGENT_LSP_TEST_USER names, or nobody; skipped
// unless root, and under CI a missing setpriv or account fails) and
// returns their verbose output; a failure fails t.
func runAsNobody(t *testing.T, pattern string) []byte {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an ordinary user (CI runs as root)")
	}
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal // a CI run that cannot switch proves nothing for ordinary users
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		skip("setpriv (util-linux) not installed")
	}
	uid, gid := "65534", "65534"
	if name := os.Getenv("AGENT_LSP_TEST_USER"); name != "" {
		u, err := user.Lookup(name)
		if err != nil || u.Uid == "0" {
			skip(fmt.Sprintf("AGENT_LSP_TEST_USER=%s: not an ordinary account: %v", name, err))
		}
		uid, gid = u.Uid, u.Gid
	}
	bin := copyTestBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, setpriv, "--reuid="+uid, "--regid="+gid, "--clear-groups",
		bin, "-test.run="+pattern, "-test.v", "-test.count=1")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=/nonexistent", "TMPDIR=/tmp",
		"AGENT_LSP_SANDBOX_TEST_UID=" + uid, "AGENT_LSP_CANARY=canary-" + strconv.Itoa(os.Getpid()),
		envProtectHelper + "=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %s: %v\n%s", uid, err, out)
	}
	return out
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// copyTestBinary copies the test executable out of the build cache into a
// 0755 directory of its own (removed after the test), where an ordinary
// user can run it.
func copyTestBinary(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
	data, err := os.ReadFile(testBinary())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}
