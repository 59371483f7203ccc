package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// agentBinary is the agent-lsp binary TestMain built for this run (or the
// prebuilt one lsptest.BinaryEnv names, as for the LSP end-to-end tests).
var agentBinary string

func TestMain(m *testing.M) {
	os.Exit(lsptest.RunWithDaemon(m, filepath.Join("..", ".."), &agentBinary))
}

// Shared with the LSP and editors' end-to-end tests.
var (
	isolatedEnv = lsptest.IsolatedEnv
	workspace   = lsptest.Workspace
	tail        = lsptest.Tail
)

// requireSDK returns node and the script folder, with the SDK installed;
// a missing one skips the test, or fails it under CI, where every peer is
// installed.
func requireSDK(t *testing.T) (node, dir string) {
	t.Helper()
	node = lsptest.RequirePeer(t, "node")
	dir, err := filepath.Abs("node")
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")
	if _, err := os.Stat(pkg); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("@agentclientprotocol/sdk is not installed (scripts/install-test-peers installs it): %v", err)
		}
		t.Skipf("@agentclientprotocol/sdk is not installed (run scripts/install-test-peers): %v", err)
	}
	return node, dir
}

// runNode runs a script to its end within timeout and returns its stdout;
// stderr (the agents' too: the script passes it through) is logged.
func runNode(t *testing.T, timeout time.Duration, node, dir string, env []string, args ...string) ([]byte, error) {
	t.Helper()
	return lsptest.RunPeer(t, timeout, dir, env, node, args...)
}
