package mcp_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// recordingApprover approves everything once and remembers what it was
// asked.
type recordingApprover struct {
	mu    sync.Mutex
	asked []permission.Action
}

func (r *recordingApprover) Approve(_ context.Context, a permission.Action, _ bool) (permission.Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked = append(r.asked, a)
	return permission.AllowOnce, nil
}

// The demo check: the demo server's tools, mounted through the
// manager, are used by the unchanged agent loop against the fake model,
// and each call is put to the approver as its own tool.
func TestDemoToolsThroughTheAgent(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	m := mcp.NewManager(reg, []string{root}, zaptest.NewLogger(t))
	t.Cleanup(func() { _ = m.Close() })
	// The test binary is the demo server when re-executed with this
	// variable (see TestMain).
	m.Start(t.Context(), []mcp.ServerConfig{{Name: "demo", Type: mcp.TypeStdio, Command: os.Args[0],
		Env: map[string]string{"AGENT_LSP_MCP_TEST_SERVER": "demo"}}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := m.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	if st := m.Status(); len(st) != 1 || st[0].State != mcp.StateReady || st[0].ProtocolVersion != "2026-07-28" {
		t.Fatalf("status = %+v", st)
	}

	script := providertest.Script{
		{
			ToolCalls: []providertest.Call{
				{ID: "call_time", Name: "mcp__demo__current_time", Arguments: `{}`},
				{ID: "call_wc", Name: "mcp__demo__word_count", Arguments: `{"text":"one two three"}`},
			},
			Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 30},
		},
		{Text: "It is now on the server; the text has 3 words.", Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 12}},
	}
	srv := providertest.NewServer(t, script)
	p, err := provider.NewHTTP(provider.HTTPOptions{APIKey: "test-key", Client: srv.Client(), Dialect: openai.NewDialect(), BaseURL: srv.OpenAIBaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	approver := &recordingApprover{}
	s := agent.NewSession(agent.Config{
		Provider: p, Model: "deepseek-flash", MaxTokens: 1024, Tools: reg,
		Env:  &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(approver),
	}, "You are a test.")
	o := s.Prompt(t.Context(), "What time is it, and how many words in 'one two three'?", agent.ListenerFunc(func(agent.Event) {}))
	if o.Err != nil || o.StopReason != agent.StopEndTurn {
		t.Fatalf("outcome = %+v", o)
	}
	for i, rq := range srv.Requests() {
		if rq.Rejected != "" {
			t.Errorf("request %d rejected: %s", i, rq.Rejected)
		}
	}
	if first := string(srv.Requests()[0].Body); !strings.Contains(first, `"mcp__demo__word_count"`) || !strings.Contains(first, `"read_file"`) {
		t.Errorf("the MCP tools were not offered beside the built-ins")
	}
	results := map[string]provider.Message{}
	for _, msg := range s.History() {
		if msg.Role == provider.RoleTool {
			results[msg.ToolCallID] = msg
		}
	}
	if r := results["call_wc"]; r.IsError || !strings.Contains(r.Text, "words: 3") {
		t.Errorf("word_count result = %+v", r)
	}
	if r := results["call_time"]; r.IsError || !strings.Contains(r.Text, time.Now().Format("2006-01-02")[:4]) {
		t.Errorf("current_time result = %+v", r)
	}
	var asked []string
	for _, a := range approver.asked {
		asked = append(asked, a.Scope)
	}
	slices.Sort(asked)
	if !slices.Equal(asked, []string{"mcp__demo__current_time", "mcp__demo__word_count"}) {
		t.Errorf("approvals asked for scopes %v, want one per tool", asked)
	}
}
