package lsp_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A worktree session outlives its daemon: the next one lists it with its
// worktree, and a prompt to it works in the worktree again, never in the
// user's checkout.
func TestWorktreeSessionSurvivesARestart(t *testing.T) {
	model := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "w1", Name: "write_file", Arguments: `{"path":"note.txt","content":"from the worktree\n"}`}}},
		{Text: "Written."},
	})
	state := t.TempDir()
	first := start(t, nil, setupOptions{model: model, stateDir: state, autoApprove: true, files: map[string]string{"a.txt": "a\n"}})
	gitInit(t, first.root)
	first.initialize(nil)
	var made worktreeSession
	if err := first.ed.Call(ctx(t), "agent/newSession", map[string]any{"worktree": "kept"}, &made); err != nil {
		t.Fatal(err)
	}
	first.stop()

	second := start(t, nil, setupOptions{model: model, stateDir: state, autoApprove: true})
	second.root = first.root
	second.initialize(nil)
	var listed struct {
		Sessions []worktreeSession `json:"sessions"`
	}
	if err := second.ed.Call(ctx(t), "agent/sessions", nil, &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed.Sessions) != 1 || listed.Sessions[0].SessionID != made.SessionID || listed.Sessions[0].Worktree.Path != made.Worktree.Path ||
		listed.Sessions[0].Worktree.Branch != "agent-lsp/kept" {
		t.Fatalf("after the restart agent/sessions = %+v, want %+v", listed.Sessions, made)
	}
	r := second.prompt(map[string]any{"sessionId": made.SessionID, "prompt": "Write a note."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt after the restart: %+v", r)
	}
	if got, err := os.ReadFile(filepath.Join(made.Worktree.Path, "note.txt")); err != nil || string(got) != "from the worktree\n" {
		t.Errorf("note.txt in the worktree: %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(first.root, "note.txt")); !os.IsNotExist(err) {
		t.Errorf("the resumed session wrote in the user's checkout: %v", err)
	}
}
