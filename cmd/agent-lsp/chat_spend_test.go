package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The chat stops a turn before the request that could take the session
// past --max-usd, says so with the cap, and "/budget 10" goes on with the
// same turn: the refused request is sent (no new user message). gpt-4.1 is
// $2 per million fresh input tokens: the first call's million cost $2, and
// the second, projected at about half a million cached tokens' worth plus
// its output, would pass $2.30.
func TestChatSpendCapStopsAndBudgetContinues(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "c_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
					Usage: provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 10}},
				{Text: "Done reading.", Usage: provider.Usage{PromptTokens: 1_000_050, CompletionTokens: 5}},
			}, providertest.WithSeed(29))
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runChatCmd(t, "Read a.txt.\n/budget 10\n", "--provider", dialect, "--base-url", baseURL(srv, dialect),
				"--api-key-env", "none", "--model", "gpt-4.1", "--thinking=false", "--no-color", "--dir", root, "--no-save", "--max-usd", "2.3")
			if code != 0 || !strings.Contains(stdout, "Done reading.") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			all := stdout + stderr
			for _, want := range []string{
				"[spend: 87% of the session's cap spent ($2.0001 of $2.30)]",
				"the session's cap is $2.30 ($2.0001 spent); raise it (/budget sessionUsd=…) to go on]",
				"· cap $2.30]",
			} {
				if !strings.Contains(all, want) {
					t.Errorf("the chat did not show %q:\n%s", want, all)
				}
			}
			reqs := srv.Requests()
			if len(reqs) != 2 || reqs[1].Rejected != "" || bytes.Contains(reqs[1].Body, []byte("budget")) {
				t.Fatalf("%d requests; the continued one must be the refused one, with no new message", len(reqs))
			}
		})
	}
}

// --max-usd-day holds across two chat runs on one state directory: the
// first spent $2 of $2.05; the second's first request is not sent.
func TestChatDayCapHoldsAcrossSessions(t *testing.T) {
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "first", Usage: provider.Usage{PromptTokens: 1_000_000}},
				{Text: "second", Usage: provider.Usage{PromptTokens: 1_000_000}},
			}, providertest.WithSeed(30))
			common := []string{"--provider", dialect, "--base-url", baseURL(srv, dialect), "--api-key-env", "none", "--model", "gpt-4.1",
				"--thinking=false", "--no-color", "--dir", t.TempDir(), "--state-dir", t.TempDir(), "--max-usd-day", "2.05"}
			if code, stdout, stderr := runChatCmd(t, "", append(common, "-p", "one")...); code != 0 || !strings.Contains(stdout, "first") {
				t.Fatalf("first run: exit %d\n%s\n%s", code, stdout, stderr)
			}
			code, stdout, stderr := runChatCmd(t, "", append(common, "-p", "two")...)
			if code != 1 || strings.Contains(stdout, "second") || !strings.Contains(stderr, "the day's cap is $2.05 ($2.00 spent)") {
				t.Fatalf("second run: exit %d, want 1 with the day's cap\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("%d requests, want 1", n)
			}
		})
	}
}
