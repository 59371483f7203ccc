package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Hooks through ACP, both dialects: the user's PreToolUse hook blocks rm
// with a reason the model reads; the workspace's hook does not run until
// /hooks trust, and the session says so first.
func TestHooksThroughACP(t *testing.T) {
	user, err := hooks.Parse(json.RawMessage(`{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command",
		"command":"grep -q '\"command\":\"rm ' && { echo 'use the trash, not rm' >&2; exit 2; }; exit 0"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	bash := func(id, cmd string) providertest.Turn {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: string(args)}}}
	}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range map[string]string{
				"keep.txt":              "precious\n",
				".agents/settings.json": `{"hooks":{"PostToolUse":[{"hooks":[{"type":"command","command":"touch workspace-hook-ran"}]}]}}`,
			} {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := startAgent(t, harnessOptions{dialect: dialect, hooks: user, script: providertest.Script{
				bash("call_1", "rm keep.txt"), {Text: "Kept."}, bash("call_2", "echo hi"), {Text: "Done."}}})
			h.initialize(true)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: root, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
				return u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil &&
					strings.Contains(u.AgentMessageChunk.Content.Text.Text, "hooks (.agents/settings.json) that do not run until you trust them")
			}); err != nil {
				t.Errorf("the session did not say the workspace's hooks wait: %v", err)
			}
			h.prompt(ns.SessionId, "Clean up.")
			if _, err := os.Stat(filepath.Join(root, "keep.txt")); err != nil {
				t.Errorf("the user's hook did not block rm: %v", err)
			}
			if body := string(h.model.Requests()[1].Body); !strings.Contains(body, "blocked by a hook: use the trash, not rm") {
				t.Errorf("the model did not read the hook's reason:\n%.500s", body)
			}
			if _, err := os.Stat(filepath.Join(root, "workspace-hook-ran")); err == nil {
				t.Error("the workspace's hook ran before it was trusted")
			}
			h.prompt(ns.SessionId, "/hooks trust")
			h.prompt(ns.SessionId, "Say hi.")
			if _, err := os.Stat(filepath.Join(root, "workspace-hook-ran")); err != nil {
				t.Errorf("the trusted workspace hook did not run: %v", err)
			}
		})
	}
}
