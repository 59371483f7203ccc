package acp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	"github.com/agent-lsp/agent-lsp/permission"
)

// hiddenCommands read other than they run; shown is how every text of the
// question must show them.
var hiddenCommands = []struct {
	name, command, shown string
}{
	{"carriage return", "echo safe\rgit push --force", `echo safe\rgit push --force`},
	{"escape", "echo ok \x1b[2K\x1b[1G", `echo ok \x1b[2K\x1b[1G`},
	{"OSC 52", "echo \x1b]52;c;cm0gLXJmIH4=\a", `echo \x1b]52;c;cm0gLXJmIH4=\a`},
	{"bidi override", "cat notes\u202Etxt.sh", `cat notes<U+202E>txt.sh`},
	{"zero-width space", "ping -c1 evil\u200B.example", `ping -c1 evil<U+200B>.example`},
	{"long command", "echo " + strings.Repeat("padding ", 60) + "&& git push --force origin main", "&& git push --force origin main"},
}

// hiddenRune is a character no question shows raw.
func hiddenRune(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
}

// session/request_permission's title and texts show every hidden
// character of the command, the summary and the reasons; its raw input
// keeps the command that runs.
func TestApproverShowsHiddenCharacters(t *testing.T) {
	for _, tc := range hiddenCommands {
		t.Run(tc.name, func(t *testing.T) {
			p := &askPeer{outcome: pick(optRejectOnce)}
			a := &approver{s: &session{id: "s1", peer: p}}
			act := permission.Action{Tool: "run_bash", Summary: "run: " + tc.command, Command: tc.command,
				Risk: permission.High, CallID: "call_1", Reasons: []string{"why: " + tc.command}, Diff: "+" + tc.command + "\n"}
			if _, err := a.Approve(context.Background(), act, false); err != nil {
				t.Fatal(err)
			}
			q := p.got.ToolCall
			texts := []string{*q.Title}
			for _, c := range q.Content {
				if c.Content == nil || c.Content.Content.Text == nil {
					t.Fatalf("content %+v is not text", c)
				}
				texts = append(texts, c.Content.Content.Text.Text)
			}
			if len(texts) != 4 {
				t.Fatalf("title and %d texts, want the title, the diff, the command and a reason: %q", len(texts)-1, texts)
			}
			for _, text := range texts {
				if !strings.Contains(text, tc.shown) {
					t.Errorf("%q does not show %q", text, tc.shown)
				}
				if i := strings.IndexFunc(text, hiddenRune); i >= 0 {
					t.Errorf("%q is shown raw in %q", []rune(text[i:])[0], text)
				}
			}
			raw, _ := json.Marshal(q.RawInput)
			var input struct{ Command, VisibleCommand string }
			if err := json.Unmarshal(raw, &input); err != nil {
				t.Fatal(err)
			}
			if input.Command != tc.command || !strings.Contains(input.VisibleCommand, tc.shown) {
				t.Errorf("rawInput %s: want command %q and visibleCommand showing %q", raw, tc.command, tc.shown)
			}
		})
	}
}

// A tool call's title (session/update) shows the command's hidden
// characters and its tail.
func TestToolCallTitleShowsHiddenCharacters(t *testing.T) {
	for _, tc := range hiddenCommands {
		args, _ := json.Marshal(map[string]string{"command": tc.command})
		title, _ := describeCall(nil, "run_bash", args)
		if !strings.HasSuffix(title, tc.shown) || strings.IndexFunc(title, hiddenRune) >= 0 {
			t.Errorf("%s: title %q, want it to end with %q and hide nothing", tc.name, title, tc.shown)
		}
		args, _ = json.Marshal(map[string]string{"path": "notes" + tc.command})
		if title, _ := describeCall(nil, "read_file", args); strings.IndexFunc(title, hiddenRune) >= 0 {
			t.Errorf("%s: title %q shows a hidden character raw", tc.name, title)
		}
	}
}
