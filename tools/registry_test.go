package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
)

// funcTool is a Tool whose behaviour each test supplies.
type funcTool struct {
	name     string
	describe func(args json.RawMessage) (permission.Action, error)
	run      func(ctx context.Context, args json.RawMessage) (Result, error)
	limit    int // OutputLimit when > 0
}

func (f *funcTool) Name() string            { return f.name }
func (f *funcTool) Description() string     { return "test tool " + f.name }
func (f *funcTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (f *funcTool) Describe(_ context.Context, args json.RawMessage, _ *Env) (permission.Action, error) {
	if f.describe != nil {
		return f.describe(args)
	}
	return permission.Action{Summary: f.name, Scope: f.name}, nil
}
func (f *funcTool) Run(ctx context.Context, args json.RawMessage, _ *Env) (Result, error) {
	return f.run(ctx, args)
}

type limitedTool struct{ *funcTool }

func (l limitedTool) OutputLimit() int { return l.limit }

func echoTool(name string) *funcTool {
	return &funcTool{name: name, run: func(_ context.Context, args json.RawMessage) (Result, error) {
		return Result{Output: string(args)}, nil
	}}
}

type gateFunc func(ctx context.Context, a permission.Action) (permission.Verdict, error)

func (g gateFunc) Check(ctx context.Context, a permission.Action) (permission.Verdict, error) {
	return g(ctx, a)
}

func newTestRegistry(t *testing.T, tools ...Tool) *Registry {
	t.Helper()
	r := NewRegistry()
	for _, tool := range tools {
		if err := r.Add(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestRegistryAddRemoveOrder(t *testing.T) {
	r := newTestRegistry(t, echoTool("b"), echoTool("a"), echoTool("c"))
	if err := r.Add(echoTool("a")); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("duplicate: %v", err)
	}
	for _, bad := range []string{"", "has space", "dot.name", strings.Repeat("x", 65), "ünï"} {
		if err := r.Add(echoTool(bad)); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	if err := r.Add(nil); err == nil {
		t.Error("nil tool accepted")
	}
	if !r.Remove("a") || r.Remove("a") {
		t.Error("Remove should report true once, then false")
	}
	if _, ok := r.Lookup("a"); ok {
		t.Error("removed tool still found")
	}
	var names []string
	for _, tool := range r.Tools() {
		names = append(names, tool.Name())
	}
	if got := strings.Join(names, ","); got != "b,c" {
		t.Errorf("order %q, want registration order b,c", got)
	}
}

func TestExecuteOutcomes(t *testing.T) {
	var ran atomic.Int32
	countingRun := func(out string, err error) func(context.Context, json.RawMessage) (Result, error) {
		return func(context.Context, json.RawMessage) (Result, error) {
			ran.Add(1)
			return Result{Output: out}, err
		}
	}
	r := newTestRegistry(t,
		echoTool("echo"),
		&funcTool{name: "fails", run: countingRun("", errors.New("disk on fire"))},
		&funcTool{name: "is_error", run: func(context.Context, json.RawMessage) (Result, error) {
			return Result{Output: "exit status 2", IsError: true}, nil
		}},
		&funcTool{name: "bad_describe", run: countingRun("ran", nil), describe: func(json.RawMessage) (permission.Action, error) {
			return permission.Action{}, errors.New("old_string not found")
		}},
		&funcTool{name: "denied", run: countingRun("ran", nil)},
		&funcTool{name: "panics", run: func(context.Context, json.RawMessage) (Result, error) { panic("boom") }},
		&funcTool{name: "panics_describe", run: countingRun("ran", nil), describe: func(json.RawMessage) (permission.Action, error) {
			panic(fmt.Errorf("nil map"))
		}},
	)
	gate := gateFunc(func(_ context.Context, a permission.Action) (permission.Verdict, error) {
		if a.Tool == "denied" {
			return permission.Verdict{Allowed: false, Reason: "the user said no"}, nil
		}
		return permission.Verdict{Allowed: true}, nil
	})
	calls := []Call{
		{ID: "1", Name: "echo", Args: json.RawMessage(`{"x":1}`)},
		{ID: "2", Name: "nope", Args: json.RawMessage(`{}`)},
		{ID: "3", Name: "echo", Args: json.RawMessage(`{"x":`)},
		{ID: "4", Name: "echo", Args: json.RawMessage(`[1,2]`)},
		{ID: "5", Name: "echo", Args: nil},
		{ID: "6", Name: "fails", Args: json.RawMessage(`{}`)},
		{ID: "7", Name: "is_error", Args: json.RawMessage(`{}`)},
		{ID: "8", Name: "bad_describe", Args: json.RawMessage(`{}`)},
		{ID: "9", Name: "denied", Args: json.RawMessage(`{}`)},
		{ID: "10", Name: "panics", Args: json.RawMessage(`{}`)},
		{ID: "11", Name: "panics_describe", Args: json.RawMessage(`{}`)},
	}
	want := []struct {
		status Status
		output string // substring
	}{
		{StatusCompleted, `{"x":1}`},
		{StatusFailed, `unknown tool "nope"; available: echo, fails, is_error, bad_describe, denied, panics, panics_describe`},
		{StatusFailed, "invalid arguments JSON: unexpected end of JSON input"},
		{StatusFailed, "invalid arguments JSON: arguments must be a JSON object, got array"},
		{StatusCompleted, `{}`},
		{StatusFailed, "disk on fire"},
		{StatusFailed, "exit status 2"},
		{StatusFailed, "old_string not found"},
		{StatusDenied, "the user said no"},
		{StatusFailed, `internal error while running tool "panics": panic: boom`},
		{StatusFailed, `internal error while describing tool "panics_describe": panic: nil map`},
	}
	got := r.Execute(context.Background(), &Env{}, calls, ExecOptions{Gate: gate})
	if len(got) != len(calls) {
		t.Fatalf("%d outcomes for %d calls", len(got), len(calls))
	}
	for i, o := range got {
		if o.Call.ID != calls[i].ID {
			t.Errorf("outcome %d is for call %s", i, o.Call.ID)
		}
		if o.Status != want[i].status || !strings.Contains(o.Output, want[i].output) {
			t.Errorf("call %s: got %s %q, want %s containing %q", calls[i].ID, o.Status, o.Output, want[i].status, want[i].output)
		}
	}
	if n := ran.Load(); n != 1 {
		t.Errorf("%d runs; only \"fails\" should have run (not the denied or undescribable ones)", n)
	}
}

func TestExecuteRunsCallsInParallel(t *testing.T) {
	const n = 4
	var running atomic.Int32
	allIn := make(chan struct{})
	var once sync.Once
	barrier := &funcTool{name: "barrier", run: func(ctx context.Context, _ json.RawMessage) (Result, error) {
		if running.Add(1) == n {
			once.Do(func() { close(allIn) })
		}
		// A tool cannot fail the test: a deadline turns a wait that never
		// ends into the tool's error.
		bounded, cancel := context.WithTimeout(ctx, await.Long)
		defer cancel()
		select {
		case <-allIn:
			return Result{Output: "met"}, nil
		case <-bounded.Done():
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			return Result{}, fmt.Errorf("only %d of %d calls were running at once", running.Load(), n)
		}
	}}
	r := newTestRegistry(t, barrier)
	calls := make([]Call, n)
	for i := range calls {
		calls[i] = Call{ID: fmt.Sprint(i), Name: "barrier"}
	}
	for _, o := range r.Execute(context.Background(), &Env{}, calls, ExecOptions{MaxParallel: n}) {
		if o.Status != StatusCompleted {
			t.Fatalf("call %s: %s %s", o.Call.ID, o.Status, o.Output)
		}
	}
}

func TestExecuteRespectsMaxParallelAndOrder(t *testing.T) {
	const n, maxParallel = 8, 3
	var running, peak atomic.Int32
	started := make(chan string, n)
	release := map[string]chan struct{}{}
	for i := range n {
		release[fmt.Sprint(i)] = make(chan struct{})
	}
	slow := &funcTool{name: "slow", run: func(_ context.Context, args json.RawMessage) (Result, error) {
		cur := running.Add(1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		var a struct{ ID string }
		_ = json.Unmarshal(args, &a)
		started <- a.ID
		<-release[a.ID] // runs until the test lets it finish
		running.Add(-1)
		return Result{Output: string(args)}, nil
	}}
	r := newTestRegistry(t, slow)
	var calls []Call
	for i := range n {
		calls = append(calls, Call{ID: fmt.Sprint(i), Name: "slow", Args: json.RawMessage(fmt.Sprintf(`{"ID":"%d"}`, i))})
	}
	var finished []string
	var inCallback atomic.Bool
	opts := ExecOptions{MaxParallel: maxParallel, OnFinish: func(o Outcome) {
		if !inCallback.CompareAndSwap(false, true) {
			t.Error("OnFinish called concurrently")
		}
		finished = append(finished, o.Call.ID)
		// The last calls are let go together: they finish while it sleeps
		// and must wait for it.
		time.Sleep(time.Millisecond) // the behaviour under test: a slow callback
		inCallback.Store(false)
	}}
	done := make(chan []Outcome, 1)
	go func() { done <- r.Execute(context.Background(), &Env{}, calls, opts) }()

	// Keep the limit's worth of calls running and let the latest one
	// finish, so that calls finish out of their order; the last ones
	// go together.
	var live []string
	for begun := 0; begun < n; {
		for len(live) < maxParallel && begun < n {
			live = append(live, await.Event(t, started, "a call to start"))
			begun++
		}
		if begun == n {
			break
		}
		last := live[len(live)-1]
		live = live[:len(live)-1]
		close(release[last])
	}
	for _, id := range live {
		close(release[id])
	}
	got := await.Event(t, done, "Execute to return")
	for i, o := range got {
		if o.Call.ID != fmt.Sprint(i) || o.Output != string(calls[i].Args) {
			t.Errorf("outcome %d: %+v", i, o)
		}
	}
	if p := peak.Load(); p != maxParallel {
		t.Errorf("peak concurrency %d, want %d", p, maxParallel)
	}
	if len(finished) != len(calls) {
		t.Errorf("OnFinish called %d times for %d calls", len(finished), len(calls))
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(i)
	}
	if slices.Equal(finished, ids) {
		t.Errorf("calls finished in their own order %v: the test shows nothing about the outcomes' order", finished)
	}
}

func TestExecuteTruncatesOutput(t *testing.T) {
	big := strings.Repeat("0123456789\n", 10000)
	out := func(context.Context, json.RawMessage) (Result, error) { return Result{Output: big}, nil }
	r := newTestRegistry(t,
		&funcTool{name: "big", run: out},
		limitedTool{&funcTool{name: "paged", run: out, limit: 50000}},
	)
	got := r.Execute(context.Background(), &Env{}, []Call{{Name: "big"}, {Name: "paged"}}, ExecOptions{MaxOutput: 1000})
	if n := len(got[0].Output); n > 1000 || !truncNote.MatchString(got[0].Output) {
		t.Errorf("big: %d bytes, note present %v", n, truncNote.MatchString(got[0].Output))
	}
	if n := len(got[1].Output); n > 50000 || n < 40000 {
		t.Errorf("paged: %d bytes; its own OutputLimit (50000) should apply", n)
	}
	def := r.Execute(context.Background(), &Env{}, []Call{{Name: "big"}}, ExecOptions{})
	if n := len(def[0].Output); n > 32<<10 || n < 30<<10 {
		t.Errorf("default limit: %d bytes, want just under 32 KiB", n)
	}
}

func TestExecuteCancellation(t *testing.T) {
	started := make(chan struct{}, 10)
	blocker := &funcTool{name: "blocker", run: func(ctx context.Context, _ json.RawMessage) (Result, error) {
		started <- struct{}{}
		<-ctx.Done()
		return Result{}, ctx.Err()
	}}
	r := newTestRegistry(t, blocker)
	ctx, cancel := context.WithCancel(context.Background())
	var starts atomic.Int32
	go func() {
		<-started
		cancel()
	}()
	begin := time.Now()
	calls := []Call{{ID: "a", Name: "blocker"}, {ID: "b", Name: "blocker"}, {ID: "c", Name: "blocker"}}
	got := r.Execute(ctx, &Env{}, calls, ExecOptions{MaxParallel: 1, OnStart: func(Call) { starts.Add(1) }})
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	for _, o := range got {
		if o.Status != StatusFailed || o.Output != "cancelled" {
			t.Errorf("call %s: %s %q, want failed \"cancelled\"", o.Call.ID, o.Status, o.Output)
		}
	}
	if n := starts.Load(); n != 3 {
		t.Errorf("OnStart called %d times; every call should be announced", n)
	}
	if len(started) != 0 {
		t.Error("a call started running after cancellation")
	}
}

func TestExecuteGateErrors(t *testing.T) {
	r := newTestRegistry(t, echoTool("echo"))
	broken := gateFunc(func(context.Context, permission.Action) (permission.Verdict, error) {
		return permission.Verdict{}, errors.New("approver gone")
	})
	got := r.Execute(context.Background(), &Env{}, []Call{{Name: "echo"}}, ExecOptions{Gate: broken})
	if got[0].Status != StatusFailed || got[0].Output != "permission check failed: approver gone" {
		t.Errorf("gate error: %+v", got[0])
	}

	ctx, cancel := context.WithCancel(context.Background())
	waiting := gateFunc(func(ctx context.Context, _ permission.Action) (permission.Verdict, error) {
		cancel() // the user cancels while the popup is up
		<-ctx.Done()
		return permission.Verdict{}, ctx.Err()
	})
	got = r.Execute(ctx, &Env{}, []Call{{Name: "echo"}}, ExecOptions{Gate: waiting})
	if got[0].Status != StatusFailed || got[0].Output != "cancelled" {
		t.Errorf("cancelled approval: %+v", got[0])
	}

	var seen permission.Action
	recording := gateFunc(func(_ context.Context, a permission.Action) (permission.Verdict, error) {
		seen = a
		return permission.Verdict{}, nil // not allowed, no reason
	})
	got = r.Execute(context.Background(), &Env{}, []Call{{Name: "echo"}}, ExecOptions{Gate: recording})
	if got[0].Status != StatusDenied || got[0].Output != "denied" {
		t.Errorf("denial without reason: %+v", got[0])
	}
	if seen.Tool != "echo" {
		t.Errorf("the gate saw Tool %q; an empty Tool should be filled with the tool's name", seen.Tool)
	}
}
