package e2e

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

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// daemonBinary is the agent-lsp binary TestMain built for this run.
var daemonBinary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "agent-lsp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	daemonBinary = filepath.Join(dir, "agent-lsp")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", daemonBinary, "./cmd/agent-lsp")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building agent-lsp: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// requirePeer returns the path of a client program, or skips the test when
// it is not installed: CI installs every peer (scripts/install-test-peers),
// so there a missing one fails instead.
func requirePeer(t *testing.T, name string) string {
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

// daemon is one daemon's command line against a fake model, logging to a
// file that is shown when the test fails.
type daemon struct {
	args    []string
	logFile string
}

func newDaemon(t *testing.T, model *providertest.Server, extra ...string) daemon {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "agent-lsp.log")
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if b, err := os.ReadFile(logFile); err == nil {
			t.Logf("daemon log:\n%s", tail(b, 60))
		}
	})
	args := []string{daemonBinary, "--provider", "openai", "--base-url", model.OpenAIBaseURL(),
		"--api-key-env", "none", "--thinking=false", "--log-file", logFile}
	return daemon{args: append(args, extra...), logFile: logFile}
}

// tail keeps the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// workspace makes a workspace folder holding files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// isolatedEnv is the environment of a client program: its own HOME and
// XDG directories (Neovim writes logs, shada and swap files there), the
// PATH, and nothing else of ours.
func isolatedEnv(t *testing.T) []string {
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

// runPeer runs a client program to its end within timeout and returns its
// stdout; stderr is logged.
func runPeer(t *testing.T, timeout time.Duration, dir string, env []string, name string, args ...string) ([]byte, error) {
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
		t.Logf("%s stderr:\n%s", filepath.Base(name), tail(stderr.Bytes(), 40))
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("%s did not finish within %v: %w", filepath.Base(name), timeout, err)
	}
	return stdout.Bytes(), err
}
