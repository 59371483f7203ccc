package control_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/control"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// /rewind N restores the checkpoint's files and drops the conversation
// from its prompt on; Rewind refuses an unknown checkpoint as invalid.
func TestRewind(t *testing.T) {
	f := newFixture(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file", Arguments: `{"path":"a.txt","content":"agent\n"}`}}},
		{Text: "written"},
	}, fixtureOptions{files: map[string]string{"a.txt": "mine\n"}})
	s := f.newSession("")
	if res, err := s.Prompt(context.Background(), control.PromptInput{Text: "rewrite a.txt"}, discard); err != nil || res.Outcome.Text != "written" {
		t.Fatalf("%+v, %v", res, err)
	}
	path := filepath.Join(f.ws.Roots()[0], "a.txt")
	if b, _ := os.ReadFile(path); string(b) != "agent\n" {
		t.Fatalf("a.txt = %q", b)
	}
	_, err := s.Rewind(context.Background(), "no-such-checkpoint", agent.RewindOptions{RestoreFiles: true})
	mustKind(t, err, control.ErrInvalid)

	res, err := s.Prompt(context.Background(), control.PromptInput{Text: "/rewind 1"}, discard)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Outcome.Text, "Rewound to checkpoint 1 (\"rewrite a.txt\")") || !strings.Contains(res.Outcome.Text, "restored a.txt") {
		t.Errorf("answer %q", res.Outcome.Text)
	}
	if b, _ := os.ReadFile(path); string(b) != "mine\n" {
		t.Errorf("a.txt after rewind = %q", b)
	}
	if n := len(s.Agent().Checkpoints()); n != 0 {
		t.Errorf("%d checkpoints left", n)
	}
}
