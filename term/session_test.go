package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// testChat is a chatControl on a controller session in root, talking to
// a strict fake model, showing everything in out.
type testChat struct {
	c   *chatControl
	srv *providertest.Server
	out *bytes.Buffer
}

func newTestChat(t *testing.T, root string, script providertest.Script, prompts control.PromptSource) *testChat {
	t.Helper()
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	srv := providertest.NewServer(t, script)
	cfg := provider.DefaultConfig("openai")
	cfg.APIKeyEnv, cfg.BaseURL = "none", srv.OpenAIBaseURL()
	p, closeModel, err := connect.New(cfg, connect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeModel() })
	ctl := control.New(control.Options{Model: cfg, Provider: p,
		Connect: func(cfg provider.Config) (provider.Provider, func() error, error) {
			return connect.New(cfg, connect.Options{Getenv: func(string) string { return "" }})
		}})
	t.Cleanup(func() { _ = ctl.Close() })
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	out := &bytes.Buffer{}
	c := &chatControl{ctl: ctl, ws: ws, p: newPrinter(out, out, false)}
	b := control.Binding{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}, Tools: reg,
		Approver: permission.AutoApprover{}, Notify: c.notify}
	if prompts != nil {
		b.Prompts = prompts
	}
	if c.sess, err = ctl.NewSession(b, ""); err != nil {
		t.Fatal(err)
	}
	return &testChat{c: c, srv: srv, out: out}
}

// line runs one REPL line (a command, or a prompt) and returns what it
// showed.
func (tc *testChat) line(t *testing.T, line string) (string, error) {
	t.Helper()
	tc.out.Reset()
	handled, err := tc.c.command(context.Background(), line)
	if !handled {
		_, err = tc.c.prompt(context.Background(), line)
	}
	return tc.out.String(), err
}

// fakePrompts is one MCP server's prompts: greet takes a name.
type fakePrompts struct{ got []map[string]string }

func (f *fakePrompts) Prompts() []mcp.PromptInfo {
	return []mcp.PromptInfo{{Server: "fake", Name: "greet", Description: "Greet someone",
		Arguments: []mcp.PromptArgument{{Name: "name", Required: true}}}}
}

func (f *fakePrompts) GetPrompt(_ context.Context, server, name string, args map[string]string) (string, error) {
	f.got = append(f.got, args)
	if server != "fake" || name != "greet" {
		return "", fmt.Errorf("no prompt %s/%s", server, name)
	}
	return "Say hello to " + args["name"] + ".", nil
}

// An MCP prompt runs as /mcp__<server>__<prompt>: its text is the user
// message the model reads, and /help lists it next to the built-ins.
func TestChatRunsMCPPromptAsCommand(t *testing.T) {
	prompts := &fakePrompts{}
	tc := newTestChat(t, t.TempDir(), providertest.Script{{Text: "Hello, Ann!"}}, prompts)
	out, err := tc.line(t, "/help")
	if err != nil || !strings.Contains(out, "/mcp__fake__greet") || !strings.Contains(out, "/rewind") || !strings.Contains(out, "/exit") {
		t.Fatalf("/help = %q, %v", out, err)
	}
	out, err = tc.line(t, "/mcp__fake__greet Ann")
	if err != nil || !strings.Contains(out, "Hello, Ann!") {
		t.Fatalf("the MCP prompt = %q, %v", out, err)
	}
	if got := lastUserText(t, tc.srv); got != "Say hello to Ann." {
		t.Errorf("the model read %q, want the prompt's text", got)
	}
	if _, err := tc.line(t, "/mcp__fake__nothing"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an unknown command: %v", err)
	}
	if len(tc.srv.Requests()) != 1 {
		t.Errorf("an unknown command reached the model")
	}
}

// The plan todo_write makes is shown as it changes; /clear clears it and
// says so.
func TestChatShowsPlanUpdates(t *testing.T) {
	tc := newTestChat(t, t.TempDir(), providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "todo_write",
			Arguments: `{"items":[{"content":"read the code","status":"completed"},{"content":"fix the bug","status":"in_progress"}]}`}}},
		{Text: "On it."},
	}, nil)
	out, err := tc.line(t, "fix it")
	if err != nil || !strings.Contains(out, "plan:\n  [x] read the code\n  [>] fix the bug\n") || !strings.Contains(out, "On it.") {
		t.Fatalf("prompt = %q, %v", out, err)
	}
	out, err = tc.line(t, "/clear")
	if err != nil || !strings.Contains(out, "[plan cleared]") || !strings.Contains(out, "conversation cleared") {
		t.Fatalf("/clear = %q, %v", out, err)
	}
	// No plan on the screen: clearing again says nothing of a plan.
	if out, err = tc.line(t, "/clear"); err != nil || strings.Contains(out, "plan") {
		t.Fatalf("second /clear = %q, %v", out, err)
	}
}
