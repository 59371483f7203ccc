package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// switchScript is what the strict fake answers a session of two prompts
// with a model switch between them.
var switchScript = providertest.Script{{Text: "answer of the first model"}, {Text: "answer of the switched model"}}

// checkNoRequest fails when the replay reached a model server.
func checkNoRequest(t *testing.T, srv *providertest.Server) {
	t.Helper()
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("the replay sent %d requests to a model server", len(reqs))
	}
}

// The daemon recorded with --record, over a model switch by
// agent/setModel to the other dialect, keeps both exchanges; replayed with
// --replay, the same session gets both answers, in order, and no model
// server is asked. (The daemon once reopened, and so emptied, the
// recording at the switch, and replayed a switched model from the start.)
func TestDaemonRecordingSpansAModelSwitch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	srv := providertest.NewServer(t, switchScript)
	answers := daemonSwitchSession(t, srv, "--record", path)
	if want := []string{switchScript[0].Text, switchScript[1].Text}; strings.Join(answers, "|") != strings.Join(want, "|") {
		t.Fatalf("recorded session answered %q", answers)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Dialect != "anthropic" {
		t.Fatalf("the switch did not reach the Messages dialect: %d requests", len(reqs))
	}

	none := providertest.NewServer(t, nil)
	replayed := daemonSwitchSession(t, none, "--replay", path)
	if strings.Join(replayed, "|") != strings.Join(answers, "|") {
		t.Fatalf("replayed session answered %q, recorded %q", replayed, answers)
	}
	checkNoRequest(t, none)
}

// daemonSwitchSession runs the daemon in this process over pipes, as an
// editor does, for one session: a prompt, a switch to srv's Messages
// endpoint, a prompt; it returns the two answers.
func daemonSwitchSession(t *testing.T, srv *providertest.Server, flags ...string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stderr := &lsptest.Output{}
	args := append([]string{"serve", "--provider", "openai", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
		"--thinking=false", "--state-dir", t.TempDir()}, flags...)
	done := make(chan int, 1)
	go func() { // owner: this test; ends at exit or when its input closes
		code := run(args, inR, outW, stderr)
		_ = outW.Close()
		done <- code
	}()
	ed := lsptest.Connect(ctx, pipeRW{Reader: outR, Writer: inW, closers: []io.Closer{inW, outR}}, lsptest.Handlers{})
	defer ed.Close()
	if _, err := ed.Initialize(ctx, t.TempDir(), lsptest.Capabilities{}, nil); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr.String())
	}
	type result struct {
		SessionID, StopReason, Text, Error string
	}
	prompt := func(params map[string]any) result {
		var r result
		if err := ed.Call(ctx, "agent/prompt", params, &r); err != nil || r.StopReason != "end_turn" {
			t.Fatalf("agent/prompt: %v %+v\nstderr:\n%s", err, r, stderr.String())
		}
		return r
	}
	first := prompt(map[string]any{"prompt": "first"})
	if err := ed.Call(ctx, "agent/setModel", map[string]any{"sessionId": first.SessionID, "provider": "anthropic",
		"model": "switched-model", "baseURL": srv.AnthropicBaseURL(), "apiKeyEnv": "none"}, nil); err != nil {
		t.Fatalf("agent/setModel: %v", err)
	}
	second := prompt(map[string]any{"sessionId": first.SessionID, "prompt": "second"})
	if err := ed.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	_ = ed.Notify(ctx, "exit", nil)
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("daemon exit code %d\nstderr:\n%s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatalf("the daemon did not end\nstderr:\n%s", stderr.String())
	}
	return []string{first.Text, second.Text}
}

// The terminal chat recorded with --record, over a switch by /model,
// keeps both exchanges; replayed with --replay, the same session prints
// both answers and no model server is asked. (The chat once recorded only
// the first model's exchanges.)
func TestChatRecordingSpansAModelSwitch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	session := "first\n/model switched-model\nsecond\n"
	srv := providertest.NewServer(t, switchScript)
	code, out, errOut := chatIn(t, srv, t.TempDir(), t.TempDir(), session, "--thinking=false", "--record", path)
	if code != 0 || !strings.Contains(out, switchScript[0].Text) || !strings.Contains(out, switchScript[1].Text) {
		t.Fatalf("recorded chat: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "switched-model") {
		t.Fatalf("the second prompt did not reach the switched model: %d requests", len(reqs))
	}

	none := providertest.NewServer(t, nil)
	code, out, errOut = chatIn(t, none, t.TempDir(), t.TempDir(), session, "--thinking=false", "--replay", path)
	first, second := strings.Index(out, switchScript[0].Text), strings.Index(out, switchScript[1].Text)
	if code != 0 || first < 0 || second < first {
		t.Fatalf("replayed chat: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	checkNoRequest(t, none)
}
