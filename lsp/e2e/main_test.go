package e2e

import (
	"os"
	"path/filepath"
	"testing"

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
	runPeer     = lsptest.RunPeer
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
