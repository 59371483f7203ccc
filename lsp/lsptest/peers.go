package lsptest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BinaryEnv names a prebuilt agent-lsp binary for the end-to-end tests to
// use instead of building the tree's (a release, or a tree that does not
// build while it is being edited).
const BinaryEnv = "AGENT_LSP_E2E_BINARY"

// BuildDaemon builds ./cmd/agent-lsp of the module at repoRoot into a
// temporary directory, or returns the binary BinaryEnv names. cleanup
// removes what was built; it is never nil.
func BuildDaemon(repoRoot string) (bin string, cleanup func(), err error) {
	cleanup = func() {}
	if bin := os.Getenv(BinaryEnv); bin != "" {
		return bin, cleanup, nil
	}
	dir, err := os.MkdirTemp("", "agent-lsp-e2e-")
	if err != nil {
		return "", cleanup, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	bin = filepath.Join(dir, "agent-lsp")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/agent-lsp")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		return "", cleanup, fmt.Errorf("building agent-lsp: %w\n%s", err, out)
	}
	return bin, cleanup, nil
}

// RunWithDaemon is a TestMain body: it builds the daemon (BuildDaemon),
// stores its path in *bin, runs the tests and cleans up.
func RunWithDaemon(m *testing.M, repoRoot string, bin *string) int {
	path, cleanup, err := BuildDaemon(repoRoot)
	defer cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	*bin = path
	return m.Run()
}

// RequirePeer returns the path of a client program, or skips the test
// when it is not installed: CI installs every peer
// (scripts/install-test-peers), so there a missing one fails instead.
func RequirePeer(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed (scripts/install-test-peers installs it): %v", name, err)
		}
		t.Skipf("%s is not installed (run scripts/install-test-peers): %v", name, err)
	}
	return p
}

// IsolatedEnv is the environment of a client program and the daemon it
// starts: its own HOME and XDG directories (Neovim writes logs, shada and
// swap files there; the daemon stores sessions under XDG_STATE_HOME), the
// PATH, and nothing else of ours.
func IsolatedEnv(t testing.TB) []string {
	t.Helper()
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"NVIM_LOG_FILE=" + filepath.Join(home, "nvim.log")}
	for _, d := range []string{"CONFIG_HOME", "DATA_HOME", "STATE_HOME", "CACHE_HOME", "RUNTIME_DIR"} {
		dir := filepath.Join(home, strings.ToLower(d))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, "XDG_"+d+"="+dir)
	}
	return env
}

// Workspace makes a workspace folder holding files (name → text).
func Workspace(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Tail keeps the last n lines of b, for logs shown when a test fails.
func Tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// RunPeer runs a client program to its end within timeout in dir with env
// and returns its stdout; its stderr (and the daemon's or agents' when
// the program passes theirs through) is logged.
func RunPeer(t testing.TB, timeout time.Duration, dir string, env []string, name string, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("%s stderr:\n%s", filepath.Base(name), Tail(stderr.Bytes(), 40))
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%s did not finish within %v: %w", filepath.Base(name), timeout, err)
	}
	return stdout.Bytes(), err
}
