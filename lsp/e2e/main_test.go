package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// daemonBinary is the agent-lsp binary TestMain built for this run.
var daemonBinary string

func TestMain(m *testing.M) {
	os.Exit(lsptest.RunWithDaemon(m, filepath.Join("..", ".."), &daemonBinary))
}

// Shared with the editors' end-to-end tests.
var (
	requirePeer = lsptest.RequirePeer
	isolatedEnv = lsptest.IsolatedEnv
	workspace   = lsptest.Workspace
	tail        = lsptest.Tail
)

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
