package acp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/mcp/demo"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// An http MCP server from session/new is reached with the client's
// headers, its tools are the model's and its prompts slash commands.
func TestHTTPMCPServer(t *testing.T) {
	var unauthorized atomic.Int32
	handler := mcpsdk.NewStreamableHTTPHandler(func(*http.Request) *mcpsdk.Server {
		s := demo.NewServer(nil)
		s.AddPrompt(&mcpsdk.Prompt{Name: "review", Description: "Review a file",
			Arguments: []*mcpsdk.PromptArgument{{Name: "file", Required: true}}},
			func(_ context.Context, r *mcpsdk.GetPromptRequest) (*mcpsdk.GetPromptResult, error) {
				return &mcpsdk.GetPromptResult{Messages: []*mcpsdk.PromptMessage{{Role: "user",
					Content: &mcpsdk.TextContent{Text: "Please review " + r.Params.Arguments["file"] + " carefully."}}}}, nil
			})
		return s
	}, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cret" {
			unauthorized.Add(1)
			http.Error(w, "missing token", http.StatusUnauthorized)
			return
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	h := startAgent(t, harnessOptions{dialect: anthropic.Name, script: providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_wc", Name: "mcp__remote__word_count", Arguments: `{"text":"a b c d"}`}}},
		{Check: bodyHas("words: 4"), Text: "four words"},
		{Check: bodyHas("Please review main.go carefully."), Text: "reviewed"},
	}})
	h.initialize(false)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{{Http: &sdk.McpServerHttpInline{
		Type: "http", Name: "remote", Url: srv.URL, Headers: []sdk.HttpHeader{{Name: "Authorization", Value: "Bearer s3cret"}},
	}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
		return u.AvailableCommandsUpdate != nil && hasCommand(u.AvailableCommandsUpdate.AvailableCommands, "mcp__remote__review")
	}); err != nil {
		t.Fatal("the MCP prompt is not a command: ", err)
	}
	if r := h.prompt(ns.SessionId, "count"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	// The MCP prompt as a slash command: its text is the prompt.
	if r := h.prompt(ns.SessionId, "/mcp__remote__review main.go"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	ups, _ := h.client.snapshot()
	if !slices.ContainsFunc(ups, func(n sdk.SessionNotification) bool {
		u := n.Update.ToolCallUpdate
		return u != nil && u.ToolCallId == "call_wc" && u.Status != nil && *u.Status == sdk.ToolCallStatusCompleted
	}) {
		t.Fatal("the http MCP tool call did not complete")
	}
	if n := unauthorized.Load(); n != 0 {
		t.Fatalf("%d requests without the client's header", n)
	}
}

// Cancelling a prompt while its command runs in the client's terminal
// kills and releases the terminal, and the prompt answers cancelled.
func TestCancelDuringTerminalCommand(t *testing.T) {
	h := startAgent(t, harnessOptions{dialect: anthropic.Name, script: providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_sleep", Name: "run_bash", Arguments: `{"command":"sleep 30"}`}}},
	}})
	h.initialize(true)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan sdk.PromptResponse, 1)
	go func() { // owner: this test; ends with the prompt
		r, err := h.conn.Prompt(h.ctx(), sdk.PromptRequest{SessionId: ns.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("sleep")}})
		if err != nil {
			t.Errorf("prompt: %v", err)
		}
		done <- r
	}()
	if _, err := h.client.waitFor(h.ctx(), func(u sdk.SessionUpdate) bool {
		tu := u.ToolCallUpdate
		return tu != nil && len(tu.Content) > 0 && tu.Content[0].Terminal != nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := h.conn.Cancel(h.ctx(), sdk.CancelNotification{SessionId: ns.SessionId}); err != nil {
		t.Fatal(err)
	}
	// The command sleeps 30 s, longer than await's wait: only the cancel
	// can end the prompt in time.
	r := await.Event(t, done, "session/cancel to end the prompt")
	if r.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("stop %q", r.StopReason)
	}
	term, err := h.client.term("term-1")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-term.done: // killed: released or killed by the agent
	default:
		t.Fatal("the terminal's command still runs")
	}
}
