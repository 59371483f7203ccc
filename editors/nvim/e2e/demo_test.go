package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// TestServeDemoModel serves the scripted model of the README's walkthrough
// for a manual run of the plugin (the screenshots were taken so): with
// AGENT_LSP_NVIM_DEMO=<dir> it writes the fake's base URL to
// <dir>/base_url and blocks until <dir>/stop exists (at most 15 minutes);
// without it, it skips. The model must be asked in the walkthrough's
// order: "Explain greet", then an inline prompt on greet.
func TestServeDemoModel(t *testing.T) {
	dir := os.Getenv("AGENT_LSP_NVIM_DEMO")
	if dir == "" {
		t.Skip("set AGENT_LSP_NVIM_DEMO=<dir> to serve the walkthrough's model")
	}
	model := providertest.NewServer(t, providertest.Script{
		{Reasoning: "The user asks about greet. I should read main.go before answering.",
			ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"main.go"}`}},
			Usage:     provider.Usage{PromptTokens: 2150, CompletionTokens: 48}},
		{Text: "`greet` builds a greeting by joining \"hello \" and the name:\n\n" +
			"    greet(\"wörld\") == \"hello wörld\"\n\n" +
			"main prints the greeting for \"wörld\". The greeting is lower case and has no punctuation.",
			Usage: provider.Usage{PromptTokens: 2390, CompletionTokens: 61, CachedTokens: 2048}},
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: greetEdit}},
			Usage: provider.Usage{PromptTokens: 2620, CompletionTokens: 70, CachedTokens: 2304}},
		{Text: "Done: greet now says \"Hello, <name>!\".",
			Usage: provider.Usage{PromptTokens: 2800, CompletionTokens: 14, CachedTokens: 2560}},
	}, providertest.WithDeltaSize(6))
	if err := os.WriteFile(filepath.Join(dir, "base_url"), []byte(model.OpenAIBaseURL()), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Minute)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(dir, "stop")); err == nil {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}
