package lsp_test

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// An editor that saves an agent's edit before it answers
// workspace/applyEdit (VS Code with autoSave: the didSave arrives before
// the answer) has the file on disk: the model is not told it is unsaved.
// An editor that answers first and saves later (Neovim, VS Code without
// autoSave) is TestChangesMapAndSaveClearsTheNote's case.
func TestSavedBeforeTheAnswerIsSaved(t *testing.T) {
	for _, caps := range []struct {
		name string
		caps lsptest.Capabilities
	}{{"documentChanges", fullCaps}, {"changes map", lsptest.Capabilities{ApplyEdit: true}}} {
		t.Run(caps.name, func(t *testing.T) {
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
					Arguments: `{"path":"a.txt","old_string":"one","new_string":"uno"}`}}},
				{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"cat a.txt"}`}}},
				{Text: "Edited."},
			}
			s := start(t, script, setupOptions{caps: caps.caps, autoApprove: true,
				files:    map[string]string{"a.txt": "one two\n"},
				handlers: lsptest.Handlers{SaveEdits: true}})
			s.initialize(nil)
			r := s.prompt(map[string]any{"prompt": "Translate."})
			var out string
			for _, u := range s.updates(r.SessionID) {
				if u.Kind == "tool_result" && u.ToolCallID == "call_bash" {
					out = u.Output
				}
			}
			if !strings.Contains(out, "uno two") || strings.Contains(out, "not saved") {
				t.Errorf("run_bash after an edit the editor saved = %q", out)
			}
		})
	}
}
