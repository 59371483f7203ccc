//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Ctrl-C (SIGINT) during an answer cancels that prompt, not the chat: the
// REPL says so and answers the next prompt.
func TestChatInterruptCancelsThePromptNotTheChat(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Text: "this answer never ends", Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 2}},
		{Text: "the second answer"},
	})
	p := startChat(t, "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--no-color",
		"--dir", t.TempDir(), "--no-save")
	if _, err := io.WriteString(p.stdin, "first\n"); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := srv.WaitRequests(wctx, 1); err != nil {
		t.Fatalf("the first model call: %v", err)
	}
	// The fake splits its frames by seed: two frames may carry only "t".
	waitChat(t, "the answer streaming", func() bool { return strings.HasPrefix(p.stdout.String(), "t") })
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitChat(t, "the prompt cancelled", func() bool { return strings.Contains(p.stdout.String(), "[cancelled]") })
	if _, err := io.WriteString(p.stdin, "second\n"); err != nil {
		t.Fatal(err)
	}
	waitChat(t, "the next answer", func() bool { return strings.Contains(p.stdout.String(), "the second answer") })
	if code := p.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
