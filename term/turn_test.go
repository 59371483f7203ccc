package term

import (
	"context"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// watchedBuffer is the terminal's output, written from the prompts'
// goroutines, with a channel closed at each write.
type watchedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{})} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

func (w *watchedBuffer) next() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

func (w *watchedBuffer) await(t *testing.T, what string) {
	t.Helper()
	await.Until(t, what, w.next, func() bool { return strings.Contains(w.String(), what) })
}

// Typed while a turn runs: a /steer line reaches the next model request
// after the tool result, a plain line is queued and runs after the turn,
// and the y typed for the permission question that comes meanwhile
// answers it (it is not queued).
func TestTypingWhileATurnRunsQueuesAndSteers(t *testing.T) {
	arrived, answer := make(chan struct{}, 1), make(chan struct{})
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_a", Name: "run_bash", Arguments: `{"command":"echo slow"}`}},
			Check: func(providertest.Received) error { arrived <- struct{}{}; <-answer; return nil }},
		{Text: "Steered."},
		{Text: "Queued ran."},
	}
	srv := providertest.NewServer(t, script)
	cfg := provider.DefaultConfig("openai")
	cfg.APIKeyEnv, cfg.BaseURL = "none", srv.OpenAIBaseURL()
	model, closeModel, err := connect.New(cfg, connect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = closeModel() })
	ctl := control.New(control.Options{Model: cfg, Provider: model})
	t.Cleanup(func() { _ = ctl.Close() })
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}

	out := newWatchedBuffer()
	in, typing := io.Pipe()
	t.Cleanup(func() { typing.Close() })
	p := newPrinter(out, out, false)
	term := &terminal{o: Options{Stdout: out, Stderr: out}, p: p, approver: NewApprover(in, out, false), interactive: true}
	c := &session{ctl: ctl, p: p, root: ws.Roots()[0]}
	b := control.Binding{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}, Tools: reg, Approver: term.approver, Notify: c.notify}
	if c.sess, err = ctl.NewSession(b, ""); err != nil {
		t.Fatal(err)
	}

	quit := make(chan bool, 1)
	go func() { quit <- term.turn(context.Background(), c, "Run it.") }()
	await.Event(t, arrived, "the first model request")
	type line string
	typeLine := func(l line) {
		if _, err := io.WriteString(typing, string(l)+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	typeLine("/steer Also say hi.")
	out.await(t, "q1 steer Also say hi.")
	typeLine("Then the queued one.")
	out.await(t, "q2 queue Then the queued one.")
	close(answer)
	out.await(t, "[y] allow")
	typeLine("y")
	if got := await.Event(t, quit, "the turn"); got {
		t.Fatal("the turn asked to quit")
	}

	shown := out.String()
	for _, want := range []string{"↳ steer: Also say hi.", "Steered.", "Queued ran."} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, shown)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3:\n%s", len(reqs), shown)
	}
	second, third := string(reqs[1].Body), string(reqs[2].Body)
	if r, s := strings.LastIndex(second, "slow"), strings.LastIndex(second, "Also say hi."); r < 0 || s < r {
		t.Errorf("the second request does not carry the steer after the command's output:\n%s", second)
	}
	if !strings.Contains(third, "Then the queued one.") || strings.Contains(third, `"content":"y"`) {
		t.Errorf("the third request:\n%s", third)
	}
}
