package acp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// ACP: a workspace's custom command is an available command and runs with
// $ARGUMENTS expanded; a skill's description is in the first request and
// its body only after the model loads it (both dialects).
func TestCustomCommandAndSkillThroughACP(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range map[string]string{
				".agents/commands/fix-issue.md":         "---\ndescription: Fix an issue\n---\nFix issue #$ARGUMENTS.\n",
				".agents/skills/release-notes/SKILL.md": "---\nname: release-notes\ndescription: Write release notes the team's way.\n---\nSECRET-STEP: link every PR.\n",
			} {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			h := startAgent(t, harnessOptions{dialect: dialect, script: providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_skill", Name: "skill", Arguments: `{"name":"release-notes"}`}}},
				{Text: "Done."},
			}})
			h.initialize(true)
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			if r := h.prompt(ns.SessionId, "/fix-issue 7"); r.StopReason != sdk.StopReasonEndTurn {
				t.Fatalf("stop %q", r.StopReason)
			}
			reqs := h.model.Requests()
			first, second := string(reqs[0].Body), string(reqs[1].Body)
			if !strings.Contains(first, "Fix issue #7.") || !strings.Contains(first, "release-notes: Write release notes the team's way.") || strings.Contains(first, "SECRET-STEP") {
				t.Errorf("first request:\n%s", first)
			}
			if !strings.Contains(second, "SECRET-STEP: link every PR.") {
				t.Errorf("second request lacks the skill's body:\n%s", second)
			}
			if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
				return u.AvailableCommandsUpdate != nil && hasCommand(u.AvailableCommandsUpdate.AvailableCommands, "fix-issue")
			}); err != nil {
				t.Errorf("fix-issue is not among the available commands: %v", err)
			}
		})
	}
}
