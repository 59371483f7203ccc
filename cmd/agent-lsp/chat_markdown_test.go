package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The ANSI styles the terminal renders markdown with (term's printer), as
// a terminal reads them.
const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiDim       = "\x1b[2m"
	ansiUnderline = "\x1b[4m"
	ansiYellow    = "\x1b[33m"
	ansiMagenta   = "\x1b[35m"
)

// ourColours are the only escape sequences the chat writes: its colours
// and rendered markdown's styles.
var ourColours = regexp.MustCompile(`\x1b\[(?:0|1|2|3|4|9|31|32|33|35|36)m`)

func stripStyles(s string) string { return ourColours.ReplaceAllString(s, "") }

// rawHidden finds, in what the built binary printed, a character the
// terminal would obey or hide, outside our own colours (term's printer
// tests hold the printer to the same).
func rawHidden(out string) int {
	return strings.IndexFunc(ourColours.ReplaceAllString(out, ""), func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
	})
}

// chatOnTerminal runs the real binary's one-shot chat with its stdout on
// a pseudo-terminal (or a pipe when onTTY is false) and returns what it
// showed there.
func chatOnTerminal(t *testing.T, srv *providertest.Server, onTTY bool, env ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, agentBinary(t), "chat", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
		"--dir", t.TempDir(), "--no-save", "-p", "explain")
	cmd.Env = append(os.Environ(), append([]string{"XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR="}, env...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var shown bytes.Buffer
	read := make(chan error, 1)
	if onTTY {
		term, reader := openPTY(t, 50)
		cmd.Stdout = term
		go func() { _, err := io.Copy(&shown, reader); read <- err }() // ends when the last writer closes (EIO)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		term.Close()
	} else {
		cmd.Stdout = &shown
		close(read)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("chat: %v\nstderr:\n%s", err, stderr.String())
	}
	<-read
	return strings.ReplaceAll(shown.String(), "\r\n", "\n")
}

// The terminal chat renders the answer's markdown on a terminal, to the
// terminal's width, and prints it exactly as the model wrote it through a
// pipe or with NO_COLOR.
func TestChatRendersMarkdownOnATerminal(t *testing.T) {
	answer := "## Steps\n\n1. Open **Calculator.java**, then read every line of the method slowly.\n2. Run it\n\n" +
		"```java\nint x = Math.addExact(a, b);\n```\n\nDone: &#27;[2J"
	srv := providertest.NewServer(t, providertest.Script{{Text: answer}, {Text: answer}, {Text: answer}})

	rendered := chatOnTerminal(t, srv, true)
	for _, want := range []string{ansiBold + ansiMagenta + "Steps" + ansiReset, "1. " + ansiReset + "Open " + ansiBold + "Calculator.java",
		ansiDim + "```java" + ansiReset, ansiYellow + "int x = Math.addExact(a, b);" + ansiReset, `Done: \x1b[2J`} {
		if !strings.Contains(rendered, want) {
			t.Errorf("the terminal does not show %q:\n%q", want, rendered)
		}
	}
	for _, line := range strings.Split(stripStyles(rendered), "\n") {
		if n := utf8.RuneCountInString(line); n > 50 {
			t.Errorf("a line of %d columns on a 50-column terminal: %q", n, line)
		}
	}
	if strings.Contains(rendered, "## Steps") || rawHidden(rendered) >= 0 {
		t.Errorf("the terminal shows raw markdown or a raw control character:\n%q", rendered)
	}

	for name, shown := range map[string]string{"pipe": chatOnTerminal(t, srv, false), "NO_COLOR": chatOnTerminal(t, srv, true, "NO_COLOR=1")} {
		if want := answer + "\n"; shown != want {
			t.Errorf("%s: the answer is not shown as typed:\n%q\nwant\n%q", name, shown, want)
		}
	}
}
