package main

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// --mcp=demo mounts the demo server's tools next to the built-ins; the
// model calls one, the user approves it at the prompt, and the result
// reaches the model.
func TestChatMountsDemoMCPServer(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "mcp__demo__word_count", Arguments: `{"text":"hello big world\nsecond line"}`}},
			Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 20}},
		{Text: "5 words.", Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 4}},
	})
	code, out, errOut := runChatCmd(t, "y\n", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
		"--dir", t.TempDir(), "--no-save", "--mcp=demo", "-p", "count the words")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "MCP[demo] mounted 2 tools") {
		t.Errorf("no mount line:\n%s", errOut)
	}
	if !strings.Contains(errOut, "permission: mcp__demo__word_count") {
		t.Errorf("the MCP call was not put to the user:\n%s", errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	if !strings.Contains(string(reqs[0].Body), `"mcp__demo__current_time"`) {
		t.Errorf("the first request does not offer the demo tools")
	}
	results := toolResultTexts(t, reqs[1])
	if len(results) != 1 || !strings.Contains(results[0], "5") {
		t.Errorf("word_count result = %q, want the counts (5 words)", results)
	}
}
