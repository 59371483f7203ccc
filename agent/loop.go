package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// run is the loop of one prompt: call the model, keep its turn, run its
// tool calls, and go again while the model stops to use tools.
func (s *Session) run(ctx context.Context, out *serialListener) Outcome {
	var o Outcome
	retried := 0 // the round compacted and sent again after a "request too long"
	for o.Rounds < s.cfg.MaxRounds {
		round := o.Rounds + 1
		// The mode may change between rounds: the tools are those it offers now.
		specs := s.offeredSpecs()
		toolTokens := estimateTools(specs)
		if err := s.checkBudget(ctx, specs, round, out); err != nil {
			o.StopReason, o.Err = StopCancelled, err
			return o
		}
		o.Rounds++
		msgs := s.snapshot()
		t, err := s.stream(ctx, round, msgs, specs, out)
		if err != nil {
			// The partial turn is dropped: nothing with an unanswered tool
			// call may enter the history.
			if ctx.Err() == nil {
				var retry bool
				if retry, err = s.recoverOverflow(ctx, err, round, retried == round, msgs, specs, out); retry {
					retried = round
					o.Rounds-- // the refused request was no round of the conversation
					continue
				}
			}
			if ctx.Err() != nil {
				o.StopReason, o.Err = StopCancelled, context.Cause(ctx)
				return o
			}
			o.StopReason, o.Err = StopError, err
			out.emit(Event{Kind: EventError, Round: round, Err: err})
			// Info, not a warning: the error event tells the user; a
			// terminal showing warnings would show it twice.
			s.cfg.Logger.Info("model call failed", zap.Int("round", round), zap.Error(err))
			return o
		}
		o.Usage = o.Usage.Add(t.usage)
		s.calibrate(t.usage, msgs, toolTokens)
		cost, priced, totals := s.account(t.usage, len(msgs), toolTokens)
		out.emit(Event{Kind: EventRoundEnd, Round: round, ModelStop: t.stop, Usage: t.usage, Cost: cost,
			CostUnknown: !priced, Totals: totals})
		s.cfg.Logger.Debug("round ended", zap.Int("round", round),
			zap.String("stop", string(t.stop)), zap.Int("tool_calls", len(t.calls)))

		if t.cut != notCut {
			// The answer passed a limit: kept cut, with its marker, and the
			// prompt ends; none of its calls runs.
			msg := t.cutMessage()
			t.release()
			s.append(msg)
			s.commit()
			o.Text, o.StopReason = msg.Text, StopAnswerCut
			if t.cut == cutManyCalls {
				o.StopReason = StopToolCallLimit
			}
			return o
		}

		// Wire rule 2 (docs/design.md §5): only the stop reason says "go
		// on"; calls that came with any other stop (max_tokens cutting the
		// arguments) are dropped.
		useTools := t.stop == provider.StopToolUse && len(t.calls) > 0
		msg := t.message(useTools)
		t.release()
		if !empty(msg) {
			s.append(msg)
			o.Text = msg.Text
		}
		if !useTools {
			o.StopReason = StopEndTurn
			if t.stop == provider.StopMaxTokens {
				o.StopReason = StopMaxTokens
			}
			s.commit()
			return o
		}

		// Written before the calls run: a crash while they run leaves
		// calls the resumed session answers as interrupted, naming what
		// each call was about to touch.
		s.commit()
		s.appendResults(s.runTools(ctx, round, msg.ToolCalls, out))
		s.commit() // every call answered: the round is complete
		if ctx.Err() != nil {
			o.StopReason, o.Err = StopCancelled, context.Cause(ctx)
			return o
		}
		if o.Rounds < s.cfg.MaxRounds { // a safe point with a request to follow (steer.go)
			s.deliverSteers(round+1, out)
		}
	}
	o.StopReason = StopMaxRounds
	return o
}

// stream makes one model call and accumulates its turn, forwarding text and
// reasoning deltas as they arrive.
func (s *Session) stream(ctx context.Context, round int, msgs []provider.Message, specs []provider.ToolSpec, out *serialListener) (*turn, error) {
	m := s.current() // a model switched meanwhile takes effect here
	req := provider.Request{
		Model:     m.Model,
		Messages:  msgs,
		Tools:     specs,
		MaxTokens: s.outputRoom(m, msgs, specs),
		Thinking:  m.Thinking,
	}
	t := &turn{limits: s.limits}
	// The provider's retries are the prompt's events: a front end says
	// "retrying (2/4)" instead of waiting in silence.
	ctx = provider.WithRetryHook(ctx, func(r provider.Retry) {
		out.emit(Event{Kind: EventRetry, Round: round, Retry: r, Err: r.Err})
	})
	for ev := range m.Provider.Stream(ctx, req) {
		kept, more := t.take(ev) // a delta past the answer's limit is shown as far as it is kept
		switch {
		case kept == "":
		case ev.Type == provider.EventText:
			out.emit(Event{Kind: EventText, Round: round, Text: kept})
		case ev.Type == provider.EventReasoning:
			out.emit(Event{Kind: EventReasoning, Round: round, Text: kept})
		}
		if !more {
			break // the turn is over or cut; stopping the iteration closes the stream
		}
	}
	if err := t.finish(); err != nil {
		return nil, fmt.Errorf("round %d: %w", round, err)
	}
	return t, nil
}

// runTools runs one turn's calls in parallel and returns one tool message
// per call, in the order the model asked. Each call gets exactly one
// tool_call and one tool_result event, whatever the registry reports.
func (s *Session) runTools(ctx context.Context, round int, calls []provider.ToolCall, out *serialListener) []provider.Message {
	var (
		mu       sync.Mutex
		started  = make(map[string]bool, len(calls))
		finished = make(map[string]bool, len(calls))
	)
	start := func(c tools.Call) {
		mu.Lock()
		first := !started[c.ID]
		started[c.ID] = true
		mu.Unlock()
		if first {
			out.emit(Event{Kind: EventToolCall, Round: round, ToolCallID: c.ID,
				ToolName: c.Name, Arguments: argumentsJSON(string(c.Args))})
		}
	}
	finish := func(o tools.Outcome) {
		start(o.Call)
		mu.Lock()
		first := !finished[o.Call.ID]
		finished[o.Call.ID] = true
		mu.Unlock()
		if first {
			// Stored before it is reported: a front end that saw the
			// result can count on a resumed session having it.
			s.recordResult(resultMessage(o))
			out.emit(Event{Kind: EventToolResult, Round: round, ToolCallID: o.Call.ID,
				ToolName: o.Call.Name, Status: o.Status, Output: nonEmpty(o.Output)})
		}
	}

	tcalls := make([]tools.Call, len(calls))
	for i, c := range calls {
		tcalls[i] = tools.Call{ID: c.ID, Name: c.Name, Args: json.RawMessage(c.Arguments)}
	}
	var outcomes []tools.Outcome
	if s.cfg.Tools != nil {
		outcomes = s.cfg.Tools.Execute(ctx, s.env, tcalls, tools.ExecOptions{
			Gate:        s.gate,
			MaxParallel: s.cfg.MaxParallel,
			MaxOutput:   s.cfg.MaxOutput,
			OnStart:     start,
			OnFinish:    finish,
			Logger:      s.cfg.Logger,
		})
	}

	msgs := make([]provider.Message, len(calls))
	for i, c := range calls {
		o := tools.Outcome{Call: tcalls[i], Status: tools.StatusFailed,
			Output: fmt.Sprintf("tool %q did not run: no result was produced", c.Name)}
		if i < len(outcomes) && outcomes[i].Call.ID == c.ID {
			o = outcomes[i]
		}
		finish(o)
		msgs[i] = resultMessage(o)
	}
	return msgs
}

// resultMessage is the history's message for a finished call.
func resultMessage(o tools.Outcome) provider.Message {
	return provider.Message{Role: provider.RoleTool, ToolCallID: o.Call.ID,
		Text: nonEmpty(o.Output), IsError: o.Status != tools.StatusCompleted, Denied: o.Status == tools.StatusDenied}
}

// nonEmpty keeps a tool result readable and acceptable to the Messages
// dialect, which refuses empty content.
func nonEmpty(output string) string {
	if output == "" {
		return "(no output)"
	}
	return output
}
