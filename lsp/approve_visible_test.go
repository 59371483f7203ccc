package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
)

// hiddenCommands are commands that read other than they run, each with
// what agent/approve's shown fields must hold.
var hiddenCommands = []struct {
	name, command, shown string
}{
	{"carriage return", "echo safe\rgit push --force", `echo safe\rgit push --force`},
	{"escape", "echo ok \x1b[2K\x1b[1G", `echo ok \x1b[2K\x1b[1G`},
	{"OSC 52", "echo \x1b]52;c;cm0gLXJmIH4=\a", `echo \x1b]52;c;cm0gLXJmIH4=\a`},
	{"bidi override", "cat notes\u202Etxt.sh", `cat notes<U+202E>txt.sh`},
	{"zero-width space", "ping -c1 evil\u200B.example", `ping -c1 evil<U+200B>.example`},
	{"long command", longCommand, "&& git push --force origin main"},
}

// agent/approve keeps in command exactly what runs, and shows it in
// visibleCommand, summary and reasons with every hidden character
// written visibly, the tail of a long command included.
func TestApproveShowsHiddenCharacters(t *testing.T) {
	for _, tc := range hiddenCommands {
		t.Run(tc.name, func(t *testing.T) {
			asked := make(chan lsptest.ApproveParams, 1)
			s := start(t, bashCalls(tc.command), setupOptions{caps: approveCaps,
				handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: choose("deny", asked)}})
			s.initialize(nil)
			if r := s.prompt(map[string]any{"prompt": "Run it."}); r.StopReason != "end_turn" {
				t.Fatalf("result = %+v", r)
			}
			p := <-asked
			var shown struct {
				VisibleCommand string   `json:"visibleCommand"`
				Summary        string   `json:"summary"`
				Reasons        []string `json:"reasons"`
			}
			if err := json.Unmarshal(p.Raw, &shown); err != nil {
				t.Fatal(err)
			}
			if p.Command != tc.command {
				t.Errorf("command = %q, want what runs, %q", p.Command, tc.command)
			}
			if !strings.Contains(shown.VisibleCommand, tc.shown) || !strings.HasSuffix(shown.Summary, tc.shown) {
				t.Errorf("visibleCommand %q, summary %q: want them to show %q", shown.VisibleCommand, shown.Summary, tc.shown)
			}
			for _, text := range append([]string{shown.VisibleCommand, shown.Summary}, shown.Reasons...) {
				if i := strings.IndexFunc(text, hidden); i >= 0 {
					t.Errorf("%q is shown raw in %q", []rune(text[i:])[0], text)
				}
			}
		})
	}
}

// hidden is a character no approval shows raw.
func hidden(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
}
