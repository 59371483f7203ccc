package lsp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A workspace's custom command is listed with the built-ins and runs as
// the user's prompt with $ARGUMENTS and $1 expanded; /skills lists the
// skills; a skill runs as a command too (both dialects).
func TestCustomCommandsAndSkills(t *testing.T) {
	files := map[string]string{
		".agents/commands/fix-issue.md": "---\ndescription: Fix a GitHub issue\nargument-hint: <number>\n---\nFix issue #$ARGUMENTS, then run the tests of $1.\n",
		".claude/commands/explain.md":   "Explain the code I point at.\n",
	}
	for k, v := range skillFiles {
		files[k] = v
	}
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			s := start(t, providertest.Script{{Text: "Fixed."}, {Text: "Notes."}}, setupOptions{dialect: dialect, caps: fullCaps, files: files})
			s.initialize(nil)
			var list struct {
				Commands []struct{ Name, Description, Source string } `json:"commands"`
			}
			if err := s.ed.Call(context.Background(), "agent/commands", map[string]any{}, &list); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, c := range list.Commands {
				got[c.Name] = c.Description + " [" + strings.SplitN(c.Source, ":", 2)[0] + "]"
			}
			for name, want := range map[string]string{
				"/fix-issue": "Fix a GitHub issue [workspace]", "/explain": "Explain the code I point at. [workspace]",
				"/release-notes": "Write release notes the way this team does. [skill]", "/skills": "List the skills the model can load (the workspace's and yours) [builtin]",
			} {
				if got[name] != want {
					t.Errorf("%s: %q, want %q", name, got[name], want)
				}
			}
			r := s.prompt(map[string]any{"prompt": "/fix-issue 123"})
			if r.StopReason != "end_turn" {
				t.Fatalf("prompt: %+v", r)
			}
			if body := string(s.model.Requests()[0].Body); !strings.Contains(body, "Fix issue #123, then run the tests of 123.") {
				t.Errorf("the command's prompt did not reach the model:\n%s", body)
			}
			r = s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/release-notes for 2.0"})
			if body := string(s.model.Requests()[1].Body); r.StopReason != "end_turn" || !strings.Contains(body, "Use the skill release-notes (its instructions follow) for: for 2.0") || !strings.Contains(body, "SECRET-STEP") {
				t.Errorf("the skill command: %+v\n%s", r, body)
			}
			r = s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/skills"})
			if !strings.Contains(r.Text, "- release-notes (workspace): Write release notes") || len(s.model.Requests()) != 2 {
				t.Errorf("/skills: %+v", r)
			}
		})
	}
}
