package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nodeClient runs the vscode-jsonrpc client scripts of lsp/e2e/node
// (client.js holds what they share).
type nodeClient struct {
	node string // the node binary
	dir  string // lsp/e2e/node, absolute
}

// requireNodeClient finds node and the scripts' vscode-jsonrpc; without
// them the test skips, and under CI fails (scripts/install-test-peers
// installs them).
func requireNodeClient(t *testing.T) nodeClient {
	t.Helper()
	node := requirePeer(t, "node")
	dir, err := filepath.Abs("node")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "vscode-jsonrpc", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("vscode-jsonrpc is not installed (scripts/install-test-peers): %v", err)
		}
		t.Skipf("vscode-jsonrpc is not installed (run scripts/install-test-peers): %v", err)
	}
	return nodeClient{node: node, dir: dir}
}

// run runs script with cfg as its config file, fails the test unless the
// script's one-line summary says ok (the checks it made itself), and
// decodes that summary into sum for the test's own checks.
func (c nodeClient) run(t *testing.T, script string, cfg map[string]any, sum any) {
	t.Helper()
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfgPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out, runErr := runPeer(t, 40*time.Second, c.dir, isolatedEnv(t), c.node, filepath.Join(c.dir, script), cfgPath)
	var verdict struct {
		OK       bool     `json:"ok"`
		Failures []string `json:"failures"`
	}
	if err := json.Unmarshal(out, &verdict); err != nil {
		t.Fatalf("node %s: %v; stdout %q: %v", script, runErr, out, err)
	}
	if !verdict.OK || runErr != nil {
		t.Fatalf("node client %s failed (%v):\n  %s", script, runErr, strings.Join(verdict.Failures, "\n  "))
	}
	if err := json.Unmarshal(out, sum); err != nil {
		t.Fatalf("node %s: summary %q: %v", script, out, err)
	}
}
