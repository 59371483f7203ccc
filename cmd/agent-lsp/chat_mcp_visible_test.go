package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// What MCP servers and the workspace's .mcp.json make the chat print
// (a server's name, why it is down) is shown, never obeyed: a name with a
// clipboard write and a screen clear, a command that cannot start.
func TestChatMCPLinesShowControlSequences(t *testing.T) {
	root := t.TempDir()
	hostile := "srv\x1b]52;c;cm0gLXJmIH4K\a\x1b[2J\u202E"
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		hostile: map[string]any{"command": "./no-such-server\x1b[2J\r\u200B"},
	}})
	if err := os.WriteFile(filepath.Join(root, ".mcp.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := providertest.NewServer(t, providertest.Script{{Text: "hello"}})
	code, out, errOut := runChatCmd(t, "", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", root,
		"--state-dir", t.TempDir(), "--no-save", "--trust-workspace", "--log-file", filepath.Join(t.TempDir(), "log"), "-p", "hi")
	if code != 0 || out != "hello\n" {
		t.Fatalf("exit %d, stdout %q\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, `MCP[srv\x1b]52;c;cm0gLXJmIH4K\a\x1b[2J<U+202E>] down: `) {
		t.Errorf("the server's line does not show its name:\n%q", errOut)
	}
	if i := strings.IndexFunc(errOut, func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf) && r != '\n' && r != '\t'
	}); i >= 0 {
		t.Errorf("the chat prints %q raw:\n%q", []rune(errOut[i:])[0], errOut)
	}
}
