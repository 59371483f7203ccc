package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The chat runs a workspace's custom command with $ARGUMENTS expanded,
// and a workspace skill's description is in its first request, its body
// only once the model loads it (both dialects).
func TestChatCustomCommandAndSkill(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
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
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_skill", Name: "skill", Arguments: `{"name":"release-notes"}`}}},
				{Text: "Done."},
			}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")
			code, stdout, stderr := runChatCmd(t, "", "--provider", dialect, "--base-url", baseURL(srv, dialect),
				"--api-key-env", testKeyEnv, "--dir", dir, "--no-save", "-p", "/fix-issue 42")
			if code != 0 {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			reqs := srv.Requests()
			first, second := string(reqs[0].Body), string(reqs[1].Body)
			if !strings.Contains(first, "Fix issue #42.") || !strings.Contains(first, "release-notes: Write release notes the team's way.") || strings.Contains(first, "SECRET-STEP") {
				t.Errorf("first request:\n%s", first)
			}
			if !strings.Contains(second, "SECRET-STEP: link every PR.") {
				t.Errorf("second request lacks the skill's body:\n%s", second)
			}
		})
	}
}
