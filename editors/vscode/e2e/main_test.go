package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// daemonBinary is the agent-lsp binary TestMain built for this run.
var daemonBinary string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	// A prebuilt binary may be named (when the tree does not build while
	// other packages are being edited); else the tree's is built.
	if bin := os.Getenv("AGENT_LSP_TEST_BINARY"); bin != "" {
		daemonBinary = bin
		return m.Run()
	}
	dir, err := os.MkdirTemp("", "agent-lsp-vscode-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	daemonBinary = filepath.Join(dir, "agent-lsp")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, "go", "build", "-o", daemonBinary, "./cmd/agent-lsp")
	build.Dir = filepath.Join("..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building agent-lsp: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}
