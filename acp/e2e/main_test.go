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
)

// binaryEnv names a prebuilt agent-lsp binary to test instead of building
// the tree's (the same variable as the LSP end-to-end tests).
const binaryEnv = "AGENT_LSP_E2E_BINARY"

// agentBinary is the agent-lsp binary TestMain built for this run.
var agentBinary string

func TestMain(m *testing.M) {
	os.Exit(runWithBinary(m))
}

func runWithBinary(m *testing.M) int {
	if bin := os.Getenv(binaryEnv); bin != "" {
		agentBinary = bin
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "agent-lsp-acp-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	agentBinary = filepath.Join(dir, "agent-lsp")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", agentBinary, "./cmd/agent-lsp")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building agent-lsp: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// missing skips the test, or fails it under CI, where every peer is installed.
func missing(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format+" (scripts/install-test-peers installs it)", args...)
	}
	t.Skipf(format+" (run scripts/install-test-peers)", args...)
}

// requireSDK returns node and the script folder, with the SDK installed.
func requireSDK(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		missing(t, "node is not installed: %v", err)
	}
	if dir, err = filepath.Abs("node"); err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		missing(t, "@agentclientprotocol/sdk is not installed: %v", err)
	}
	return node, dir
}

// isolatedEnv is the environment of the script and the agents it starts:
// their own HOME and XDG folders (the agent stores sessions under
// XDG_STATE_HOME, which the second agent process must share), the PATH,
// and nothing else of ours.
func isolatedEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	for _, d := range []string{"CONFIG_HOME", "DATA_HOME", "STATE_HOME", "CACHE_HOME"} {
		dir := filepath.Join(home, strings.ToLower(d))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, "XDG_"+d+"="+dir)
	}
	return env
}

// workspace makes a workspace folder holding files (name → text).
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

// tail keeps the last n lines of b, for logs shown when a test fails.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// runNode runs a script to its end within timeout and returns its stdout;
// stderr (the agents' too: the script passes it through) is logged.
func runNode(t *testing.T, timeout time.Duration, node, dir string, env []string, args ...string) ([]byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("node stderr:\n%s", tail(stderr.Bytes(), 40))
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("node did not finish within %v: %w", timeout, err)
	}
	return stdout.Bytes(), err
}
