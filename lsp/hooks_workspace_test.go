package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A workspace's hooks (.agents/settings.json) do not run until the user
// trusts them (/hooks trust), bound to the file and the script it runs: an
// edited script is untrusted again, in the next daemon too.
func TestWorkspaceHooksRunOnlyOnceTrusted(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			files := map[string]string{
				".agents/settings.json":  `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"sh .agents/hooks/guard.sh"}]}]}}`,
				".agents/hooks/guard.sh": "touch hook-ran\necho 'no commands in this repository' >&2\nexit 2\n",
			}
			state := t.TempDir()
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_1", Name: "run_bash", Arguments: bashArgs("echo one > one.txt")}}},
				{Text: "Ran."},
				{ToolCalls: []providertest.Call{{ID: "call_2", Name: "run_bash", Arguments: bashArgs("echo two > two.txt")}}},
				{Text: "Blocked."},
			}, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true, files: files, stateDir: state})
			s.initialize(nil)
			marker := filepath.Join(s.root, "hook-ran")

			r := s.prompt(map[string]any{"prompt": "Run one."})
			if _, err := os.Stat(marker); err == nil || r.StopReason != "end_turn" {
				t.Fatalf("an untrusted workspace hook ran (%+v)", r)
			}
			if _, err := os.Stat(filepath.Join(s.root, "one.txt")); err != nil {
				t.Errorf("the command did not run: %v", err)
			}
			listed := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/hooks"})
			if !strings.Contains(listed.Text, "not trusted: they do not run") || !strings.Contains(listed.Text, ".agents/hooks/guard.sh") {
				t.Errorf("/hooks: %q", listed.Text)
			}
			if tr := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/hooks trust"}); !strings.Contains(tr.Text, "run from now on") {
				t.Fatalf("/hooks trust: %+v", tr)
			}
			s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "Run two."})
			if _, err := os.Stat(marker); err != nil {
				t.Errorf("the trusted hook did not run: %v", err)
			}
			if _, err := os.Stat(filepath.Join(s.root, "two.txt")); err == nil {
				t.Error("the hook did not block the command")
			}
			if body := string(s.model.Requests()[3].Body); !strings.Contains(body, "blocked by a hook: no commands in this repository") {
				t.Errorf("the model did not read the hook's reason:\n%.500s", body)
			}
			s.stop()

			// The script changes: a new daemon does not run it.
			if err := os.WriteFile(filepath.Join(s.root, ".agents/hooks/guard.sh"), []byte("touch edited-ran\nexit 0\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s2 := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_3", Name: "run_bash", Arguments: bashArgs("echo three")}}},
				{Text: "Ran."},
			}, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true, stateDir: state, rootDir: s.root})
			s2.initialize(nil)
			s2.prompt(map[string]any{"prompt": "Run three."})
			if _, err := os.Stat(filepath.Join(s.root, "edited-ran")); err == nil {
				t.Error("an edited hook script ran without being trusted again")
			}
		})
	}
}
