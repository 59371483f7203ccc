//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// shownAttacks are commands written to read other than they run, each
// with what every question about them must show.
var shownAttacks = []struct{ name, command, shown string }{
	{"carriage return", "echo safe\rgit push --force", `echo safe\rgit push --force`},
	{"OSC 52 clipboard write", "printf '\x1b]52;c;cm0gLXJmIH4K\a'", `printf '\x1b]52;c;cm0gLXJmIH4K\a'`},
	{"bidi override", "cat notes\u202Etxt.sh", `cat notes<U+202E>txt.sh`},
	{"zero-width space", "ping -c1 evil\u200B.example", `ping -c1 evil<U+200B>.example`},
	{"long command, dangerous tail", "echo " + strings.Repeat("padding ", 60) + "&& git push --force origin main",
		"&& git push --force origin main"},
}

// hostileFile is a workspace file (read without a question) and the
// model's last answer: what a terminal would obey, not show.
const hostileFile = "notes \x1b]52;c;cm0gLXJmIH4K\a\x1b[2J\x1b[H\rall clear \u202Egnp.exe \u200Bdone\n"

// shownRaw finds, in what a front end showed, a character a terminal
// would obey or a reader not see.
func shownRaw(s string) int {
	return strings.IndexFunc(s, func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
	})
}

// What the user is shown is what runs: the daemon's approval popups and
// the terminal chat's approval prompt show every hidden character of a
// command and a long command's tail; the chat prints the model's answer
// and a hostile file's content with no escape sequence obeyed.
func attackShownText(t *testing.T, acct account, sum *campaignSummary) {
	var calls []providertest.Call
	for _, a := range shownAttacks {
		calls = append(calls, bashCall(a.command))
	}
	calls = append(calls, toolCall("read_file", map[string]any{"path": "notes.txt"}))
	script := oneCallPerRound(calls)
	script[len(script)-1].Text = "Finished. " + hostileFile

	t.Run("daemon popups", func(t *testing.T) {
		lab := newAttackLab(t, acct, false)
		writeHostileFile(t, lab)
		srv := providertest.NewServer(t, script, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
		popups := &popupLog{choose: denying}
		d := startAttackDaemon(t, lab, srv, popups, nil)
		d.prompt(t, "Tidy up.")
		d.exit(t)
		for _, a := range shownAttacks {
			found := popups.find(a.shown)
			sum.add("shown is what runs (daemon popup)", false, len(found) > 0, false)
			if len(found) == 0 {
				t.Errorf("%s: no popup shows %q; popups:\n%q", a.name, a.shown, popups.all())
			}
		}
		for _, p := range popups.all() {
			if i := shownRaw(p.Message); i >= 0 {
				t.Errorf("a popup shows %q raw: %q", []rune(p.Message[i:])[0], p.Message)
			}
		}
	})

	t.Run("chat prompt and output", func(t *testing.T) {
		lab := newAttackLab(t, acct, false)
		writeHostileFile(t, lab)
		srv := providertest.NewServer(t, script, providertest.WithAPIKey(lab.secrets[attackKeyEnv]))
		stdout, stderr := runChatAnswering(t, lab, srv, strings.Repeat("n\n", len(shownAttacks)))
		var box []string // the lines of the chat's questions
		for _, l := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(l, "│ ") {
				box = append(box, l)
			}
		}
		for _, a := range shownAttacks {
			asked := strings.Contains(strings.Join(box, "\n"), a.shown)
			sum.add("shown is what runs (chat prompt)", false, asked, false)
			if !asked {
				t.Errorf("%s: the chat's question does not show %q:\n%s", a.name, a.shown, stderr)
			}
		}
		for what, out := range map[string]string{"answer": stdout, "progress": stderr} {
			if i := shownRaw(out); i >= 0 {
				t.Errorf("the chat's %s prints %q raw:\n%q", what, []rune(out[i:])[0], out)
			}
		}
		for _, want := range []string{`Finished. notes \x1b]52;c;cm0gLXJmIH4K\a\x1b[2J\x1b[H\rall clear <U+202E>gnp.exe <U+200B>done`} {
			if !strings.Contains(stdout, want) {
				t.Errorf("the answer does not show %q:\n%q", want, stdout)
			}
		}
		if !strings.Contains(stderr, `notes \x1b]52;c;`) {
			t.Errorf("read_file's output line does not show the file's escapes:\n%q", stderr)
		}
	})
}

func writeHostileFile(t *testing.T, lab *attackLab) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(lab.ws, "notes.txt"), []byte(hostileFile), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runChatAnswering runs a one-shot chat (no --yes) that reads answers
// from stdin, as a person at the terminal would give them; it returns
// what the chat printed on stdout and stderr.
func runChatAnswering(t *testing.T, lab *attackLab, srv *providertest.Server, answers string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lab.acct.own(t, lab.base)
	args := append([]string{"chat", "--no-save", "--dir", lab.ws}, scriptedModelFlags(lab, srv)...)
	cmd := lab.acct.command(ctx, lab.bin, append(args, "-p", "Tidy up.")...)
	cmd.Dir = lab.ws
	cmd.Env = lab.env
	cmd.WaitDelay = 5 * time.Second
	cmd.Stdin = strings.NewReader(answers)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("agent-lsp chat as %s: %v\n%s", lab.acct, err, lsptest.Tail(stderr.Bytes(), 40))
	}
	return stdout.String(), stderr.String()
}
