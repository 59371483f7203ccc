package agent

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
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

const sys = "system prompt"

// loopCase is one scripted prompt and what must come of it.
type loopCase struct {
	name    string
	answers [][]provider.Event
	tools   []tools.Tool
	config  func(*Config)
	onEvent func(Event) // sees each event as it is delivered
	check   func(t *testing.T, o Outcome, h []provider.Message, r *recorder, reqs []provider.Request)
}

func runCase(t *testing.T, tc loopCase) {
	t.Helper()
	model := newFakeModel(tc.answers...)
	cfg := Config{Provider: model, Model: "m", Tools: newRegistry(t, tc.tools...), Env: testEnv(t)}
	if tc.config != nil {
		tc.config(&cfg)
	}
	s := NewSession(cfg, sys)
	rec := &recorder{then: tc.onEvent}
	o := s.Prompt(t.Context(), "question", rec)
	if last := rec.events[len(rec.events)-1]; last.Kind != EventPromptEnd || last.StopReason != o.StopReason {
		t.Errorf("last event = %+v, want prompt_end with %q", last, o.StopReason)
	}
	h := s.History()
	assertValidHistory(t, h)
	tc.check(t, o, h, rec, model.Requests())
}

// assertValidHistory checks the invariant every dialect relies on: each
// assistant tool call is answered by exactly one tool message, right after
// it, in the order of the calls; no assistant message is empty.
func assertValidHistory(t *testing.T, h []provider.Message) {
	t.Helper()
	if len(h) == 0 || h[0].Role != provider.RoleSystem || h[0].Text != sys {
		t.Fatalf("history must start with the system prompt: %+v", h)
	}
	for i := 0; i < len(h); i++ {
		m := h[i]
		switch m.Role {
		case provider.RoleAssistant:
			if m.Text == "" && len(m.ToolCalls) == 0 {
				t.Errorf("history[%d]: empty assistant message", i)
			}
			for j, c := range m.ToolCalls {
				k := i + 1 + j
				if k >= len(h) || h[k].Role != provider.RoleTool || h[k].ToolCallID != c.ID {
					t.Fatalf("history[%d]: call %s has no result at %d: %+v", i, c.ID, k, h)
				}
			}
			i += len(m.ToolCalls)
		case provider.RoleTool:
			t.Fatalf("history[%d]: tool result without a call: %+v", i, m)
		}
	}
}

func roles(h []provider.Message) string {
	var parts []string
	for _, m := range h {
		parts = append(parts, string(m.Role))
	}
	return strings.Join(parts, ",")
}

func wantStop(t *testing.T, o Outcome, stop StopReason, rounds int) {
	t.Helper()
	if o.StopReason != stop || o.Rounds != rounds {
		t.Errorf("outcome = %q after %d rounds (err %v), want %q after %d", o.StopReason, o.Rounds, o.Err, stop, rounds)
	}
}

func TestLoop(t *testing.T) {
	boom := errors.New("connection reset")
	tests := []loopCase{
		{
			name:    "plain answer",
			answers: [][]provider.Event{answer(text("Hi"), text(" there"), done(provider.StopEndTurn, 10, 2))},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, reqs []provider.Request) {
				wantStop(t, o, StopEndTurn, 1)
				if o.Text != "Hi there" || o.Usage != (provider.Usage{PromptTokens: 10, CompletionTokens: 2}) {
					t.Errorf("outcome = %+v", o)
				}
				if got := roles(h); got != "system,user,assistant" {
					t.Errorf("roles = %s", got)
				}
				if got := r.kinds(); !slices.Equal(got, []EventKind{EventText, EventText, EventRoundEnd, EventPromptEnd}) {
					t.Errorf("events = %v", got)
				}
				if rs := r.ofKind(EventRoundEnd); rs[0].ModelStop != provider.StopEndTurn || rs[0].Round != 1 {
					t.Errorf("round_end = %+v", rs[0])
				}
				if len(reqs) != 1 || reqs[0].Model != "m" || len(reqs[0].Tools) != 1 || reqs[0].Tools[0].Name != "echo" {
					t.Errorf("request = %+v", reqs)
				}
			},
			tools: []tools.Tool{echoTool},
		},
		{
			name: "tool round then answer; usage summed; results fed back",
			answers: [][]provider.Event{
				answer(reasoning("think"), signature("sig"), text("Checking."), call("c1", "echo", `{"text":"a"}`), done(provider.StopToolUse, 100, 10)),
				answer(text("It says a."), done(provider.StopEndTurn, 150, 5)),
			},
			tools: []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, reqs []provider.Request) {
				wantStop(t, o, StopEndTurn, 2)
				if o.Usage != (provider.Usage{PromptTokens: 250, CompletionTokens: 15}) || o.Text != "It says a." {
					t.Errorf("outcome = %+v", o)
				}
				if got := roles(h); got != "system,user,assistant,tool,assistant" {
					t.Errorf("roles = %s", got)
				}
				a := h[2]
				if a.Reasoning != "think" || a.ReasoningSignature != "sig" || a.Text != "Checking." {
					t.Errorf("assistant turn lost reasoning or text: %+v", a)
				}
				if h[3].Text != "echo: a" || h[3].IsError {
					t.Errorf("tool result = %+v", h[3])
				}
				if len(reqs) != 2 || len(reqs[1].Messages) != 4 || reqs[1].Messages[2].Reasoning != "think" {
					t.Errorf("second request must carry the first turn with its reasoning: %+v", reqs)
				}
				calls, results := r.ofKind(EventToolCall), r.ofKind(EventToolResult)
				if len(calls) != 1 || calls[0].ToolCallID != "c1" || string(calls[0].Arguments) != `{"text":"a"}` || calls[0].Round != 1 {
					t.Errorf("tool_call events = %+v", calls)
				}
				if len(results) != 1 || results[0].Status != tools.StatusCompleted || results[0].Output != "echo: a" {
					t.Errorf("tool_result events = %+v", results)
				}
				if got := r.kinds(); !slices.Equal(got, []EventKind{EventReasoning, EventText, EventRoundEnd,
					EventToolCall, EventToolResult, EventText, EventRoundEnd, EventPromptEnd}) {
					t.Errorf("events = %v", got)
				}
			},
		},
		{
			name: "bad argument JSON is a failed result the model reads, then it retries",
			answers: [][]provider.Event{
				answer(call("c1", "echo", `{"text": "a"`), done(provider.StopToolUse, 1, 1)),
				answer(call("c2", "echo", `{"text":"a"}`), done(provider.StopToolUse, 1, 1)),
				answer(text("ok"), done(provider.StopEndTurn, 1, 1)),
			},
			tools: []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, reqs []provider.Request) {
				wantStop(t, o, StopEndTurn, 3)
				bad := h[3]
				if !bad.IsError || bad.ToolCallID != "c1" || !strings.Contains(bad.Text, "JSON") {
					t.Errorf("bad-JSON result = %+v, want a failed result naming the JSON problem", bad)
				}
				if h[5].IsError || h[5].Text != "echo: a" {
					t.Errorf("retry result = %+v", h[5])
				}
				if got := reqs[1].Messages[len(reqs[1].Messages)-1]; got.ToolCallID != "c1" || !got.IsError {
					t.Errorf("the model must read the failure: last message of request 2 = %+v", got)
				}
				calls := r.ofKind(EventToolCall)
				var s string
				if err := json.Unmarshal(calls[0].Arguments, &s); err != nil || s != `{"text": "a"` {
					t.Errorf("invalid arguments must be reported as a JSON string of the raw text: %s", calls[0].Arguments)
				}
				if res := r.ofKind(EventToolResult); res[0].Status != tools.StatusFailed || res[1].Status != tools.StatusCompleted {
					t.Errorf("statuses = %v, %v", res[0].Status, res[1].Status)
				}
			},
		},
		{
			name: "failing and denied calls are results, not aborts",
			answers: [][]provider.Event{
				answer(call("c1", "fail", `{}`), call("c2", "echo", `{"text":"x"}`), done(provider.StopToolUse, 1, 1)),
				answer(text("sorry"), done(provider.StopEndTurn, 1, 1)),
			},
			tools:  []tools.Tool{failTool, echoTool},
			config: func(c *Config) { c.Gate = denyGate{deny: "echo"} },
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopEndTurn, 2)
				if !h[3].IsError || !strings.Contains(h[3].Text, "disk on fire") {
					t.Errorf("failed call result = %+v", h[3])
				}
				if !h[4].IsError || !strings.Contains(h[4].Text, "denied") {
					t.Errorf("denied call result = %+v", h[4])
				}
				status := map[string]tools.Status{}
				for _, e := range r.ofKind(EventToolResult) {
					status[e.ToolCallID] = e.Status
				}
				if status["c1"] != tools.StatusFailed || status["c2"] != tools.StatusDenied {
					t.Errorf("statuses = %v", status)
				}
			},
		},
		{
			name:    "failure mid-stream drops the partial turn and keeps the prompt",
			answers: [][]provider.Event{answer(text("part"), callStart("c1", "echo"), failed(boom))},
			tools:   []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopError, 1)
				if !errors.Is(o.Err, boom) {
					t.Errorf("err = %v, want it to wrap %v", o.Err, boom)
				}
				if got := roles(h); got != "system,user" {
					t.Errorf("roles = %s", got)
				}
				if errs := r.ofKind(EventError); len(errs) != 1 || !errors.Is(errs[0].Err, boom) {
					t.Errorf("error events = %+v", errs)
				}
				if len(r.ofKind(EventRoundEnd)) != 0 {
					t.Error("a failed round must not report round_end")
				}
			},
		},
		{
			name: "failure in round 2 keeps round 1",
			answers: [][]provider.Event{
				answer(call("c1", "echo", `{"text":"a"}`), done(provider.StopToolUse, 7, 1)),
				answer(text("half"), failed(boom)),
			},
			tools: []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, _ *recorder, _ []provider.Request) {
				wantStop(t, o, StopError, 2)
				if got := roles(h); got != "system,user,assistant,tool" {
					t.Errorf("roles = %s", got)
				}
				if o.Usage.PromptTokens != 7 {
					t.Errorf("usage = %+v, want round 1's", o.Usage)
				}
			},
		},
		{
			name:    "max_tokens cuts a call: text kept, call dropped",
			answers: [][]provider.Event{answer(text("Let me look"), callStart("c1", "echo"), callArgs("c1", `{"te`), done(provider.StopMaxTokens, 1, 4096))},
			tools:   []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopMaxTokens, 1)
				if got := roles(h); got != "system,user,assistant" || h[2].Text != "Let me look" || h[2].ToolCalls != nil {
					t.Errorf("history = %+v", h)
				}
				if len(r.ofKind(EventToolCall)) != 0 {
					t.Error("a dropped call must not run")
				}
			},
		},
		{
			name:    "max_tokens with nothing but a cut call adds no message",
			answers: [][]provider.Event{answer(callStart("c1", "echo"), callArgs("c1", `{"te`), done(provider.StopMaxTokens, 1, 4096))},
			tools:   []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, _ *recorder, _ []provider.Request) {
				wantStop(t, o, StopMaxTokens, 1)
				if got := roles(h); got != "system,user" {
					t.Errorf("roles = %s", got)
				}
			},
		},
		{
			name:    "calls with an end_turn stop are not run",
			answers: [][]provider.Event{answer(text("done"), call("c1", "echo", `{"text":"a"}`), done(provider.StopEndTurn, 1, 1))},
			tools:   []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopEndTurn, 1)
				if h[2].ToolCalls != nil || len(r.ofKind(EventToolCall)) != 0 {
					t.Errorf("calls must only run on a tool_use stop: %+v", h[2])
				}
			},
		},
		{
			name:    "tool_use stop without calls ends the turn",
			answers: [][]provider.Event{answer(text("hmm"), done(provider.StopToolUse, 1, 1))},
			check: func(t *testing.T, o Outcome, h []provider.Message, _ *recorder, reqs []provider.Request) {
				wantStop(t, o, StopEndTurn, 1)
				if len(reqs) != 1 || roles(h) != "system,user,assistant" {
					t.Errorf("requests %d, roles %s", len(reqs), roles(h))
				}
			},
		},
		{
			name:    "other stop reason ends as end_turn, round_end keeps the model's reason",
			answers: [][]provider.Event{answer(text("filtered"), done(provider.StopOther, 1, 1))},
			check: func(t *testing.T, o Outcome, _ []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopEndTurn, 1)
				if re := r.ofKind(EventRoundEnd); re[0].ModelStop != provider.StopOther {
					t.Errorf("round_end = %+v", re[0])
				}
			},
		},
		{
			name: "max_rounds ends a runaway loop with its results in history",
			answers: [][]provider.Event{
				answer(call("c1", "echo", `{"text":"1"}`), done(provider.StopToolUse, 1, 1)),
				answer(call("c2", "echo", `{"text":"2"}`), done(provider.StopToolUse, 1, 1)),
				answer(call("c3", "echo", `{"text":"3"}`), done(provider.StopToolUse, 1, 1)),
				answer(text("never asked"), done(provider.StopEndTurn, 1, 1)),
			},
			tools:  []tools.Tool{echoTool},
			config: func(c *Config) { c.MaxRounds = 3 },
			check: func(t *testing.T, o Outcome, h []provider.Message, _ *recorder, reqs []provider.Request) {
				wantStop(t, o, StopMaxRounds, 3)
				if len(reqs) != 3 {
					t.Errorf("model called %d times, want 3", len(reqs))
				}
				if last := h[len(h)-1]; last.Role != provider.RoleTool || last.ToolCallID != "c3" {
					t.Errorf("last message = %+v, want c3's result", last)
				}
			},
		},
		{
			name:    "a call to an unknown tool is a failed result",
			answers: [][]provider.Event{answer(call("c1", "nope", `{}`), done(provider.StopToolUse, 1, 1)), answer(text("ok"), done(provider.StopEndTurn, 1, 1))},
			tools:   []tools.Tool{echoTool},
			check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
				wantStop(t, o, StopEndTurn, 2)
				if !h[3].IsError || len(r.ofKind(EventToolCall)) != 1 || len(r.ofKind(EventToolResult)) != 1 {
					t.Errorf("result = %+v, events = %v", h[3], r.kinds())
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runCase(t, tc) })
	}
}

// TestParallelCallsKeepModelOrder: the calls run at the same time (each
// waits for the other to start), the first finishes last (once the
// second's result is out), and the results still follow the model's order.
func TestParallelCallsKeepModelOrder(t *testing.T) {
	var arrived sync.WaitGroup
	arrived.Add(2)
	fastOut := make(chan struct{}) // closed when fast's tool_result is delivered
	meet := func(ctx context.Context, after <-chan struct{}) error {
		arrived.Done()
		waited := make(chan struct{})
		go func() { arrived.Wait(); close(waited) }()
		// A tool cannot fail the test: a deadline turns a wait that never
		// ends into the tool's error.
		bounded, cancel := context.WithTimeout(ctx, await.Long)
		defer cancel()
		select {
		case <-waited:
		case <-bounded.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errors.New("the other call never started: calls are not parallel")
		}
		select {
		case <-after:
		case <-bounded.Done():
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errors.New("the other call's result never came")
		}
		return nil
	}
	now := make(chan struct{})
	close(now)
	slow := funcTool{name: "slow", run: func(ctx context.Context, _ map[string]any) (string, error) {
		return "slow done", meet(ctx, fastOut)
	}}
	fast := funcTool{name: "fast", run: func(ctx context.Context, _ map[string]any) (string, error) {
		return "fast done", meet(ctx, now)
	}}
	runCase(t, loopCase{
		onEvent: func(e Event) {
			if e.Kind == EventToolResult && e.ToolCallID == "b" {
				close(fastOut)
			}
		},
		answers: [][]provider.Event{
			answer(call("a", "slow", `{}`), call("b", "fast", `{}`), done(provider.StopToolUse, 1, 1)),
			answer(text("both"), done(provider.StopEndTurn, 1, 1)),
		},
		tools: []tools.Tool{slow, fast},
		check: func(t *testing.T, o Outcome, h []provider.Message, r *recorder, _ []provider.Request) {
			wantStop(t, o, StopEndTurn, 2)
			if h[3].ToolCallID != "a" || h[3].Text != "slow done" || h[4].ToolCallID != "b" || h[4].Text != "fast done" {
				t.Errorf("results out of the model's order: %+v", h[3:5])
			}
			res := r.ofKind(EventToolResult)
			if len(res) != 2 || res[0].ToolCallID != "b" {
				t.Errorf("tool_result events should come as calls finish (fast first): %+v", res)
			}
		},
	})
}

// TestListenerDeliveryIsSerialized fails when two events are delivered at
// once, which parallel tool calls would do without the Session's lock.
func TestListenerDeliveryIsSerialized(t *testing.T) {
	const n = 8
	var calls []provider.Event
	for i := range n {
		calls = append(calls, call(fmt.Sprintf("c%d", i), "echo", `{"text":"x"}`)...)
	}
	model := newFakeModel(answer(calls, done(provider.StopToolUse, 1, 1)), answer(text("ok"), done(provider.StopEndTurn, 1, 1)))
	s := NewSession(Config{Provider: model, Tools: newRegistry(t, echoTool), Env: testEnv(t)}, sys)
	var inside, overlaps atomic.Int32
	events := 0
	o := s.Prompt(t.Context(), "go", ListenerFunc(func(Event) {
		if !inside.CompareAndSwap(0, 1) {
			overlaps.Add(1)
		}
		events++ // unsynchronized on purpose: -race reports concurrent delivery
		// The other calls' events arrive while it sleeps and must wait.
		time.Sleep(time.Millisecond) // the behaviour under test: a slow listener
		inside.Store(0)
	}))
	wantStop(t, o, StopEndTurn, 2)
	if overlaps.Load() != 0 {
		t.Errorf("%d overlapping deliveries", overlaps.Load())
	}
	if want := 1 + 2*n + 1 + 1 + 1; events != want { // round_end, n calls+results, text, round_end, prompt_end
		t.Errorf("%d events, want %d", events, want)
	}
}
