package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The chat's "a" (allow always) binds the workspace script the entry
// runs: unchanged, the next chat starts it unasked; swapped by the
// repository, the chat asks again and says which file changed, and no
// answer leaves the new script unrun.
func TestChatAsksAgainWhenTrustedScriptChanged(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	sink := lsptest.NewTCPSink(t)
	root, state := t.TempDir(), t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(sink.Addr)
	writeScript := func(version string) {
		t.Helper()
		script := fmt.Sprintf("echo %s >/dev/tcp/%s/%s\nexec %q mcp-demo\n", version, host, port, exe)
		if err := os.MkdirAll(filepath.Join(root, "tools"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "tools", "server.sh"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"tools": map[string]any{
		"command": "bash", "args": []string{"tools/server.sh"}, "env": map[string]string{"NODE_OPTIONS": "--require ./tools/hook.js"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	writeScript("v1")
	chat := func(stdin string) string {
		t.Helper()
		srv := providertest.NewServer(t, providertest.Script{{Text: "hello"}})
		code, out, errOut := runChatProcess(t, stdin, "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", root,
			"--state-dir", state, "--no-save", "-p", "hi")
		if code != 0 || out != "hello\n" {
			t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
		}
		return errOut
	}
	asked := func(out string) bool { return strings.Contains(out, "[a] allow always for this workspace") }

	out := chat("a\n")
	for _, want := range []string{"tools/server.sh", "NODE_OPTIONS=--require ./tools/hook.js", "NODE_OPTIONS points into the workspace", "MCP[tools] mounted 2 tools"} {
		if !strings.Contains(out, want) {
			t.Errorf("first run lacks %q:\n%s", want, out)
		}
	}
	if got := sink.Next(t, 15*time.Second); !strings.Contains(got, "v1") {
		t.Errorf("the allowed script sent %q", got)
	}
	out = chat("")
	if asked(out) || !strings.Contains(out, "MCP[tools] mounted 2 tools") {
		t.Errorf("unchanged script, second run:\n%s", out)
	}
	if got := sink.Next(t, 15*time.Second); !strings.Contains(got, "v1") {
		t.Errorf("the unchanged script sent %q", got)
	}

	writeScript("v2-swapped")
	out = chat("")
	if !asked(out) || !strings.Contains(out, "tools/server.sh changed since you allowed it") || !strings.Contains(out, "MCP[tools] not started: denied") {
		t.Errorf("swapped script:\n%s", out)
	}
	if n := sink.Connections(); n != 2 {
		t.Errorf("the swapped script ran without a yes (%d connections): %q", n, sink.Received())
	}
}
