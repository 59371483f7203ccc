package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A client's system prompt in session/new's _meta (a string, or
// {append}) reaches the model after ours; one that would replace ours is
// refused with a reason (both dialects).
func TestClientSystemPromptReachesTheModel(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: dialect, script: providertest.Script{{Text: "ok"}, {Text: "ok"}}})
			h.initialize(true)
			for i, meta := range []map[string]any{
				{"systemPrompt": "Answer in French."},
				{"systemPrompt": map[string]any{"append": "Answer in German."}},
			} {
				ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}, Meta: meta})
				if err != nil {
					t.Fatal(err)
				}
				h.prompt(ns.SessionId, "hello")
				body := string(h.model.Requests()[i].Body)
				want := []string{"Answer in French.", "Answer in German."}[i]
				if !strings.Contains(body, "Instructions from the client:\\n"+want) || !strings.Contains(body, "Environment:") {
					t.Errorf("request %d lacks the client's instructions after ours:\n%.600s", i, body)
				}
			}
			_, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{},
				Meta: map[string]any{"systemPrompt": map[string]any{"replace": "You are a pirate."}}})
			if err == nil || !strings.Contains(err.Error(), "not replaced") {
				t.Errorf("a replacing system prompt: %v", err)
			}
		})
	}
}
