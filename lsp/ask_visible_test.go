package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// agent.ask's answer popup (window/showMessage) and its log line show the
// model's hidden characters visibly: a carriage return, escapes (OSC 52),
// a bidi override, a zero-width space.
func TestAskAnswerShowsHiddenCharacters(t *testing.T) {
	answer := "Safe.\rrm -rf ~ \x1b]52;c;cm0gLXJmIH4=\a\x1b[2J \u202Egnp.exe evil\u200B.example"
	want := `Safe.\rrm -rf ~ \x1b]52;c;cm0gLXJmIH4=\a\x1b[2J <U+202E>gnp.exe evil<U+200B>.example`
	s := start(t, providertest.Script{{Text: answer}}, setupOptions{caps: fullCaps, files: map[string]string{"m.go": "package m\n"}})
	s.initialize(nil)
	rng := protocol.Range{End: protocol.Position{Character: 9}}
	var actions []protocol.CodeAction
	if err := s.ed.Call(ctx(t), "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.FileURI(filepath.Join(s.root, "m.go"))}, "range": rng,
		"context": map[string]any{"diagnostics": []any{}}}, &actions); err != nil || len(actions) == 0 || actions[0].Command == nil {
		t.Fatalf("code actions %+v: %v", actions, err)
	}
	cmd := actions[0].Command
	if err := s.ed.Call(ctx(t), "workspace/executeCommand", map[string]any{"command": cmd.Command, "arguments": cmd.Arguments}, nil); err != nil {
		t.Fatal(err)
	}
	for _, method := range []string{"window/showMessage", "window/logMessage"} {
		n := s.ed.Notifications(method)
		if len(n) != 1 {
			t.Fatalf("%s: %d notifications", method, len(n))
		}
		var p protocol.ShowMessageParams
		if err := json.Unmarshal(n[0].Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Message != want || strings.IndexFunc(p.Message, hidden) >= 0 {
			t.Errorf("%s: %q, want %q", method, p.Message, want)
		}
	}
}
