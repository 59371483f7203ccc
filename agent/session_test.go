package agent

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestCancelMidStream(t *testing.T) {
	// In a synctest bubble the clock moves only when every goroutine
	// waits on a timer: the time from cancel to the end is what the
	// prompt spent waiting on timers, not how busy the machine is.
	synctest.Test(t, func(t *testing.T) {
		model := newFakeModel(answer(text("partial"), callStart("c1", "echo"), blockUntilCancelled))
		s := NewSession(Config{Provider: model, Tools: newRegistry(t, echoTool), Env: testEnv(t)}, sys)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var cancelledAt time.Time
		rec := &recorder{}
		o := s.Prompt(ctx, "question", ListenerFunc(func(e Event) {
			rec.OnEvent(e)
			if e.Kind == EventText {
				cancelledAt = time.Now()
				cancel()
			}
		}))
		if took := time.Since(cancelledAt); took > 200*time.Millisecond {
			t.Errorf("prompt ended %v (bubble time) after cancel, want ≤ 200ms", took)
		}
		wantStop(t, o, StopCancelled, 1)
		if !errors.Is(o.Err, context.Canceled) {
			t.Errorf("err = %v", o.Err)
		}
		h := s.History()
		assertValidHistory(t, h)
		// The answer so far is kept, marked cancelled, and its call is
		// dropped: nothing with an unanswered tool call enters the history.
		if got := roles(h); got != "system,user,assistant" || h[2].Text != "partial\n\n"+cancelledMarker || len(h[2].ToolCalls) != 0 {
			t.Errorf("history %+v: want the partial answer marked cancelled, without its call", h)
		}
		if o.Usage.CompletionTokens == 0 || o.Usage.PromptTokens == 0 {
			t.Errorf("usage %+v: a cancelled prompt keeps what the model read and wrote", o.Usage)
		}
		if len(rec.ofKind(EventError)) != 0 {
			t.Error("a cancellation is not an error event")
		}
	})
}

func TestCancelMidTool(t *testing.T) {
	// In a synctest bubble the clock moves only when every goroutine
	// waits on a timer: the time from cancel to the end is what the
	// prompt spent waiting on timers, not how busy the machine is.
	synctest.Test(t, func(t *testing.T) {
		model := newFakeModel(
			answer(text("running"), call("c1", "block", `{}`), call("c2", "echo", `{"text":"a"}`), done(provider.StopToolUse, 1, 1)),
			answer(text("never asked"), done(provider.StopEndTurn, 1, 1)),
		)
		s := NewSession(Config{Provider: model, Tools: newRegistry(t, blockTool, echoTool), Env: testEnv(t)}, sys)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		var cancelledAt time.Time
		rec := &recorder{}
		o := s.Prompt(ctx, "question", ListenerFunc(func(e Event) {
			rec.OnEvent(e)
			if e.Kind == EventToolCall && e.ToolName == "block" {
				cancelledAt = time.Now()
				cancel()
			}
		}))
		if took := time.Since(cancelledAt); took > 200*time.Millisecond {
			t.Errorf("prompt ended %v (bubble time) after cancel, want ≤ 200ms", took)
		}
		wantStop(t, o, StopCancelled, 1)
		h := s.History()
		assertValidHistory(t, h)
		if got := roles(h); got != "system,user,assistant,tool,tool" {
			t.Fatalf("roles = %s", got)
		}
		if !h[3].IsError {
			t.Errorf("the cancelled call's result must be an error: %+v", h[3])
		}
		if n := len(model.Requests()); n != 1 {
			t.Errorf("model called %d times after cancel, want 1", n)
		}
		if c, r := len(rec.ofKind(EventToolCall)), len(rec.ofKind(EventToolResult)); c != 2 || r != 2 {
			t.Errorf("%d tool_call and %d tool_result events, want 2 each", c, r)
		}
	})
}

// TestNextPromptContinues: after a failed prompt the conversation goes on;
// the failed prompt's user message is still there.
func TestNextPromptContinues(t *testing.T) {
	model := newFakeModel(
		answer(text("par"), failed(errors.New("HTTP 500"))),
		answer(text("fine now"), done(provider.StopEndTurn, 1, 1)),
	)
	s := NewSession(Config{Provider: model}, sys)
	if o := s.Prompt(t.Context(), "first", nil); o.StopReason != StopError {
		t.Fatalf("first prompt: %+v", o)
	}
	o := s.Prompt(t.Context(), "second", nil)
	wantStop(t, o, StopEndTurn, 1)
	msgs := model.Requests()[1].Messages
	if len(msgs) != 3 || msgs[1].Text != "first" || msgs[2].Text != "second" {
		t.Errorf("second request = %+v", msgs)
	}
	if model.Requests()[1].Tools != nil {
		t.Error("a session without a registry offers no tools")
	}
}

func TestOnePromptAtATime(t *testing.T) {
	// In a synctest bubble the impatient prompt's deadline passes when
	// everything else waits, and synctest.Wait shows the second prompt
	// blocked rather than giving it 30 ms to misbehave.
	synctest.Test(t, func(t *testing.T) {
		model := newFakeModel(answer(text("a"), blockUntilCancelled), answer(text("b"), done(provider.StopEndTurn, 1, 1)))
		s := NewSession(Config{Provider: model}, sys)
		firstCtx, cancelFirst := context.WithCancel(t.Context())
		started := make(chan struct{})
		firstDone := make(chan Outcome)
		go func() {
			firstDone <- s.Prompt(firstCtx, "first", ListenerFunc(func(e Event) {
				if e.Kind == EventText {
					close(started)
				}
			}))
		}()
		<-started

		// A second prompt whose context ends while it waits gives up untouched.
		waitCtx, cancelWait := context.WithTimeout(t.Context(), 30*time.Millisecond)
		defer cancelWait()
		rec := &recorder{}
		within(t, time.Second, "a waiting prompt's cancellation", func() {
			if o := s.Prompt(waitCtx, "impatient", rec); o.StopReason != StopCancelled || o.Rounds != 0 {
				t.Errorf("waiting prompt = %+v", o)
			}
		})
		if k := rec.kinds(); len(k) != 1 || k[0] != EventPromptEnd {
			t.Errorf("waiting prompt events = %v, want just prompt_end", k)
		}

		// A patient second prompt runs once the first ends.
		secondDone := make(chan Outcome)
		go func() { secondDone <- s.Prompt(t.Context(), "second", nil) }()
		synctest.Wait() // every goroutine is blocked: the second prompt waits for its turn
		select {
		case o := <-secondDone:
			t.Fatalf("second prompt ran during the first: %+v", o)
		default:
		}
		cancelFirst()
		if o := <-firstDone; o.StopReason != StopCancelled {
			t.Errorf("first = %+v", o)
		}
		if o := <-secondDone; o.StopReason != StopEndTurn {
			t.Errorf("second = %+v", o)
		}
		h := s.History()
		if got := roles(h); got != "system,user,assistant,user,assistant" || h[1].Text != "first" || h[2].Text != "a\n\n"+cancelledMarker || h[3].Text != "second" {
			t.Errorf("history = %+v", h)
		}
	})
}

func TestPromptRefusesEmptyAndCancelled(t *testing.T) {
	model := newFakeModel()
	s := NewSession(Config{Provider: model}, sys)
	if o := s.Prompt(t.Context(), "", nil); o.StopReason != StopError || o.Err == nil {
		t.Errorf("empty prompt = %+v", o)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if o := s.Prompt(ctx, "late", nil); o.StopReason != StopCancelled {
		t.Errorf("cancelled prompt = %+v", o)
	}
	if got := roles(s.History()); got != "system" || len(model.Requests()) != 0 {
		t.Errorf("nothing may happen: roles %s, %d requests", got, len(model.Requests()))
	}
}

func TestHistoryIsACopy(t *testing.T) {
	model := newFakeModel(answer(call("c1", "echo", `{"text":"a"}`), done(provider.StopToolUse, 1, 1)), answer(text("ok"), done(provider.StopEndTurn, 1, 1)))
	s := NewSession(Config{Provider: model, Tools: newRegistry(t, echoTool), Env: testEnv(t)}, sys)
	s.Prompt(t.Context(), "q", nil)
	h := s.History()
	h[0].Text = "changed"
	h[2].ToolCalls[0].Name = "changed"
	again := s.History()
	if again[0].Text != sys || again[2].ToolCalls[0].Name != "echo" {
		t.Errorf("History exposed the session's own messages: %+v", again[:3])
	}
}

func TestNewSessionDefaults(t *testing.T) {
	s := NewSession(Config{}, "")
	c := s.cfg
	if c.MaxRounds != 50 || c.MaxParallel != 8 || c.MaxOutput != 32<<10 || c.Logger == nil {
		t.Errorf("defaults = %+v", c)
	}
	if len(s.History()) != 0 {
		t.Error("no system prompt, no system message")
	}
}
