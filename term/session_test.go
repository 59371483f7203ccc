package term

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// testChat is the terminal's side of a controller session in root,
// talking to a strict fake model, showing everything in out.
type testChat struct {
	c   *session
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
	c := &session{ctl: ctl, p: newPrinter(out, out, false), root: ws.Roots()[0]}
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
	_, _, err := tc.c.run(context.Background(), line)
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
	if err != nil || !strings.Contains(out, "[plan cleared]") || !strings.Contains(out, "Cleared the conversation.") {
		t.Fatalf("/clear = %q, %v", out, err)
	}
	// No plan on the screen: clearing again says nothing of a plan.
	if out, err = tc.line(t, "/clear"); err != nil || strings.Contains(out, "plan") {
		t.Fatalf("second /clear = %q, %v", out, err)
	}
}

func TestChatControl(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tc := newTestChat(t, root, providertest.Script{{Text: "seen"}}, nil)
	sess, srv := tc.c.sess, tc.srv
	// command runs a line and returns what it showed, and whether it was
	// answered without the model.
	command := func(line string) (msg string, answered bool, err error) {
		tc.out.Reset()
		_, answered, err = tc.c.run(context.Background(), line)
		return tc.out.String(), answered, err
	}

	// The commands are the controller's: the terminal shows its answer.
	if msg, answered, err := command("/mode plan"); err != nil || !answered || sess.Mode() != agent.ModePlan || !strings.Contains(msg, "Mode: plan (") {
		t.Errorf("/mode plan = %q, answered %v, %v (mode %s)", msg, answered, err, sess.Mode())
	}
	if msg, answered, err := command("/rewind"); err != nil || !answered || !strings.Contains(msg, "No checkpoints yet") {
		t.Errorf("/rewind = %q, answered %v, %v", msg, answered, err)
	}
	if _, _, err := command("/mode yolo"); err == nil {
		t.Error("/mode yolo accepted")
	}
	// The mentions are attached to the prompt the model reads; the one
	// that cannot be is shown.
	out, err := tc.line(t, "look at @a.txt#L2 and @gone.txt")
	if err != nil {
		t.Fatal(err)
	}
	text, notes := lastUserText(t, srv), notAttachedLines(out)
	if !strings.Contains(text, "two") || len(notes) != 1 || !strings.Contains(notes[0], "gone.txt") {
		t.Errorf("attach = %q, %v", text, notes)
	}
	if msg, _, _ := command("/model"); !strings.Contains(msg, "deepseek-anthropic") {
		t.Errorf("/model = %q", msg)
	}
	if msg, _, err := command("/model ollama"); err != nil || sess.Model().Model != "qwen3-coder" || !strings.Contains(msg, "Model: qwen3-coder (") {
		t.Errorf("/model ollama = %q, %v (model %+v)", msg, err, sess.Model())
	}
	// OpenAI needs a key the environment does not have: the model stays.
	if _, _, err := command("/model openai"); err == nil || sess.Model().Model != "qwen3-coder" {
		t.Errorf("/model openai without a key: %v, model %s", err, sess.Model().Model)
	}
}

// lastUserText is the text of the last user message the model received.
func lastUserText(t *testing.T, srv *providertest.Server) string {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := reqs[len(reqs)-1].Decode(&body); err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, m := range body.Messages {
		if m.Role == "user" {
			text = m.Content
		}
	}
	return text
}

func notAttachedLines(out string) []string {
	var notes []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "not attached") {
			notes = append(notes, l)
		}
	}
	return notes
}
