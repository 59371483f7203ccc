//go:build linux

package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// renderedHostileAnswer is a model answer in markdown that hides, in every
// kind of block, what a terminal would obey: raw escapes (made visible
// before rendering) and character references that markdown itself turns
// into escapes (&#27; is ESC, &#155; is CSI, &#8238; a bidi override),
// an OSC 52 clipboard write and OSC 8 hyperlinks.
const renderedHostileAnswer = "# Report &#27;[2J\n\n" +
	"Finished. " + hostileFile + "\n" +
	"- item &#x1b;]52;c;cm0gLXJmIH4K&#7;\n" +
	"- [docs](https://evil.example/&#27;]8;;https://evil.example&#27;\\\\)\n\n" +
	"> quote &#8238;gnp.exe &ZeroWidthSpace;done\n\n" +
	"| a | b |\n|---|---|\n| &#155;2J | `x\x1b[31m` |\n\n" +
	"```sh\nprintf '\x1b]8;;https://evil.example\x1b\\\\click\x1b]8;;\x1b\\\\'\n```\n"

// The terminal chat renders the model's markdown on a terminal, and what
// it renders is shown, not obeyed: no escape of the model's reaches the
// terminal, raw or made by markdown's character references, and a link is
// never a hyperlink escape.
func attackRenderedAnswer(t *testing.T, acct account, sum *campaignSummary) {
	lab := newAttackLab(t, acct, false)
	srv := providertest.NewServer(t, providertest.Script{{Text: renderedHostileAnswer}},
		providertest.WithAPIKey(lab.secrets[attackKeyEnv]), providertest.WithDeltaSize(5))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lab.acct.own(t, lab.base)
	args := append([]string{"chat", "--no-save", "--dir", lab.ws}, scriptedModelFlags(lab, srv)...)
	cmd := lab.acct.command(ctx, lab.bin, append(args, "-p", "Report.")...)
	cmd.Dir = lab.ws
	cmd.Env = withEnv(lab.env, "NO_COLOR=")
	cmd.WaitDelay = 5 * time.Second
	term, reader := openPTY(t, 80)
	var shown, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = term, &stderr
	read := make(chan struct{})
	go func() { io.Copy(&shown, reader); close(read) }() // ends when the last writer closes
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("agent-lsp chat as %s: %v\n%s", lab.acct, err, lsptest.Tail(stderr.Bytes(), 40))
	}
	<-read
	out := strings.ReplaceAll(shown.String(), "\r\n", "\n")

	if !strings.Contains(out, ansiBold+ansiMagenta+ansiUnderline+"Report") {
		t.Fatalf("the answer was not rendered:\n%q", out)
	}
	i := rawHidden(out)
	hyperlink := strings.Contains(out, "\x1b]8")
	sum.add("rendered answer shows, not obeys", false, i < 0 && !hyperlink, false)
	if i >= 0 {
		t.Errorf("the rendered answer sends a raw %q to the terminal:\n%q", []rune(stripStyles(out)[i:])[0], out)
	}
	if hyperlink {
		t.Errorf("the rendered answer holds a hyperlink escape:\n%q", out)
	}
	for _, want := range []string{`Report \x1b[2J`, `item \x1b]52;c;cm0gLXJmIH4K\a`, `docs (https://evil.example/\x1b]8;;https://evil.example\x1b\)`,
		`quote <U+202E>gnp.exe <U+200B>done`, `<U+009B>2J`, `x\x1b[31m`, `printf '\x1b]8;;https://evil.example\x1b\\click`,
		`notes \x1b]52;c;cm0gLXJmIH4K\a\x1b[2J\x1b[H\rall clear`} {
		if !strings.Contains(stripStyles(out), want) {
			t.Errorf("the rendered answer does not show %q:\n%q", want, out)
		}
	}
}
