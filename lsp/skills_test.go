package lsp_test

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// skillFiles is a workspace with one skill.
var skillFiles = map[string]string{
	".agents/skills/release-notes/SKILL.md": "---\nname: release-notes\ndescription: Write release notes the way this team does.\n---\nGroup by component; SECRET-STEP: link every PR.\n",
}

// A workspace skill's description is in the first request; its body only
// after the model loads it with the skill tool (both dialects).
func TestSkillProgressiveDisclosure(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_skill", Name: "skill", Arguments: `{"name":"release-notes"}`}}},
				{Text: "Notes written."},
			}, setupOptions{dialect: dialect, caps: fullCaps, files: skillFiles})
			s.initialize(nil)
			if r := s.prompt(map[string]any{"prompt": "Write the release notes."}); r.StopReason != "end_turn" {
				t.Fatalf("prompt: %+v", r)
			}
			reqs := s.model.Requests()
			first, second := string(reqs[0].Body), string(reqs[1].Body)
			if !strings.Contains(first, "release-notes: Write release notes the way this team does.") || strings.Contains(first, "SECRET-STEP") {
				t.Errorf("first request: the description is missing or the body is there:\n%s", first)
			}
			if !strings.Contains(second, "SECRET-STEP: link every PR.") {
				t.Errorf("the loaded skill's body did not reach the model:\n%s", second)
			}
		})
	}
}
