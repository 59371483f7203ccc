package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// blockUntilCancelled, placed in a scripted answer, makes the fake model
// hang (as a stalled network would) until the request's context ends.
var blockUntilCancelled = provider.Event{Type: 0}

// fakeModel is a provider.Provider that plays one scripted answer per
// request, in order, and records the requests.
type fakeModel struct {
	mu       sync.Mutex
	answers  [][]provider.Event
	requests []provider.Request
}

func newFakeModel(answers ...[]provider.Event) *fakeModel { return &fakeModel{answers: answers} }

func (f *fakeModel) Stream(ctx context.Context, req provider.Request) iter.Seq[provider.Event] {
	f.mu.Lock()
	n := len(f.requests)
	req.Messages = slices.Clone(req.Messages)
	f.requests = append(f.requests, req)
	f.mu.Unlock()
	return func(yield func(provider.Event) bool) {
		if n >= len(f.answers) {
			yield(failed(fmt.Errorf("fake model: no answer scripted for request %d", n+1)))
			return
		}
		for _, ev := range f.answers[n] {
			if ev.Type == blockUntilCancelled.Type {
				<-ctx.Done()
			}
			if ctx.Err() != nil {
				yield(failed(fmt.Errorf("fake model: %w", ctx.Err())))
				return
			}
			if !yield(ev) {
				return
			}
		}
	}
}

func (f *fakeModel) Requests() []provider.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

// Event builders for scripts.
func text(s string) provider.Event { return provider.Event{Type: provider.EventText, Text: s} }
func reasoning(s string) provider.Event {
	return provider.Event{Type: provider.EventReasoning, Text: s}
}
func signature(s string) provider.Event {
	return provider.Event{Type: provider.EventReasoningSignature, Text: s}
}
func callStart(id, name string) provider.Event {
	return provider.Event{Type: provider.EventToolUseStart, ToolCallID: id, ToolName: name}
}
func callArgs(id, frag string) provider.Event {
	return provider.Event{Type: provider.EventToolUseArgs, ToolCallID: id, Text: frag}
}
func done(stop provider.StopReason, prompt, completion int) provider.Event {
	return provider.Event{Type: provider.EventDone, StopReason: stop,
		Usage: provider.Usage{PromptTokens: prompt, CompletionTokens: completion}}
}
func failed(err error) provider.Event { return provider.Event{Type: provider.EventFailure, Err: err} }

// call is a whole tool call, its arguments in two fragments as a stream
// would cut them.
func call(id, name, args string) []provider.Event {
	half := len(args) / 2
	return []provider.Event{callStart(id, name), callArgs(id, args[:half]), callArgs(id, args[half:])}
}

// answer joins event groups into one scripted answer.
func answer(groups ...any) []provider.Event {
	var out []provider.Event
	for _, g := range groups {
		switch g := g.(type) {
		case provider.Event:
			out = append(out, g)
		case []provider.Event:
			out = append(out, g...)
		default:
			panic(fmt.Sprintf("answer: %T", g))
		}
	}
	return out
}

// funcTool is a test tool whose behaviour is a function.
type funcTool struct {
	name string
	run  func(ctx context.Context, args map[string]any) (string, error)
}

func (t funcTool) Name() string        { return t.name }
func (t funcTool) Description() string { return "test tool " + t.name }
func (t funcTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
}
func (t funcTool) Describe(_ context.Context, args json.RawMessage, _ *tools.Env) (permission.Action, error) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return permission.Action{}, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	return permission.Action{Tool: t.name, Summary: t.name, Scope: t.name, ReadOnly: true}, nil
}
func (t funcTool) Run(ctx context.Context, args json.RawMessage, _ *tools.Env) (tools.Result, error) {
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil {
		return tools.Result{}, err
	}
	out, err := t.run(ctx, m)
	return tools.Result{Output: out}, err
}

// echoTool answers "echo: <text>".
var echoTool = funcTool{name: "echo", run: func(_ context.Context, a map[string]any) (string, error) {
	return fmt.Sprintf("echo: %v", a["text"]), nil
}}

// failTool always fails with a message the model should read.
var failTool = funcTool{name: "fail", run: func(context.Context, map[string]any) (string, error) {
	return "", errors.New("disk on fire")
}}

// blockTool runs until its context ends.
var blockTool = funcTool{name: "block", run: func(ctx context.Context, _ map[string]any) (string, error) {
	<-ctx.Done()
	return "", ctx.Err()
}}

func newRegistry(t *testing.T, ts ...tools.Tool) *tools.Registry {
	t.Helper()
	r := tools.NewRegistry()
	for _, tool := range ts {
		if err := r.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// testEnv is an Env over a temporary workspace.
func testEnv(t *testing.T) *tools.Env {
	t.Helper()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}}
}

// recorder keeps a prompt's events. It takes no lock on purpose: the
// Session promises serialized delivery, and -race checks that promise.
type recorder struct {
	events []Event
	then   func(Event) // when set, sees each event after it is recorded
}

func (r *recorder) OnEvent(e Event) {
	r.events = append(r.events, e)
	if r.then != nil {
		r.then(e)
	}
}

func (r *recorder) kinds() []EventKind {
	out := make([]EventKind, len(r.events))
	for i, e := range r.events {
		out[i] = e.Kind
	}
	return out
}

func (r *recorder) ofKind(k EventKind) []Event {
	var out []Event
	for _, e := range r.events {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// denyGate refuses every call of the tool named deny, as a user answering
// "deny" would, and allows the rest.
type denyGate struct{ deny string }

func (g denyGate) Check(_ context.Context, a permission.Action) (permission.Verdict, error) {
	if a.Tool == g.deny {
		return permission.Verdict{Allowed: false, Reason: permission.ReasonDenied}, nil
	}
	return permission.Verdict{Allowed: true}, nil
}

// within fails the test when f takes longer than d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	start := time.Now()
	f()
	if took := time.Since(start); took > d {
		t.Errorf("%s took %v, want ≤ %v", what, took, d)
	}
}
