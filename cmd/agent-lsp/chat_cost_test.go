package main

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The chat's usage line, one at the end of a prompt, tells what it cost: "unknown" for a model the
// price table does not know (it used to print deepseek-flash's price), $0
// with --free (a local server the user says is free), and the table's
// price for a known model: gpt-4.1, $2.00 per million fresh prompt tokens.
func TestChatUsageLineCost(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown model", []string{"--model", "qwen3-local"}, "cost unknown · session unknown]"},
		{"free", []string{"--model", "qwen3-local", "--free"}, "cost $0.0000 · session $0.0000]"},
		{"known model", []string{"--model", "gpt-4.1"}, "cost $2.0000 · session $2.0000]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{Text: "hello", Usage: provider.Usage{PromptTokens: 1_000_000}},
			}, providertest.WithAPIKey("k-test"))
			t.Setenv(testKeyEnv, "k-test")
			args := append([]string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", testKeyEnv,
				"--dir", t.TempDir(), "--no-save", "-p", "hi"}, c.args...)
			code, stdout, stderr := runChatCmd(t, "", args...)
			if code != 0 || !strings.Contains(stdout, "hello") {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "[tokens: 1000000 in, 0 out · "+c.want) || strings.Contains(stderr, "[round end") {
				t.Errorf("usage line lacks %q:\n%s", c.want, stderr)
			}
		})
	}
}
