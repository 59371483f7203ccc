package control

import (
	"context"
	"errors"
	"fmt"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// ErrModelUnavailable marks an operation that needs a model call when the
// session's model cannot be reached (the configured model's error).
var ErrModelUnavailable = errors.New("model unavailable")

// Compact compacts the session's history now (old tool outputs elided,
// the older messages summarised by a model call), after any running prompt
// of the session; its events go to l. Errors: ErrModelUnavailable,
// ErrCancelled, or the compaction's own failure as the agent gives it.
func (s *Session) Compact(ctx context.Context, l agent.Listener) (agent.Compaction, error) {
	if err := s.ModelErr(); err != nil { // the summary is a model call
		return agent.Compaction{}, &kindError{kind: ErrModelUnavailable, msg: "cannot compact: " + err.Error(), err: err}
	}
	ctx, done := s.tracked(ctx)
	defer done()
	c, err := s.agent.Compact(ctx, l)
	if c.Elided > 0 || c.Summarised > 0 {
		s.touchUpdated()
	}
	s.afterCompaction(c) // hooks_lifecycle.go
	if err != nil && ctx.Err() != nil {
		return c, cancelled(context.Cause(ctx))
	}
	return c, err
}

// Clear clears the conversation (the system prompt stays) and the plan,
// after any running prompt; a plan update with no items is sent.
func (s *Session) Clear(ctx context.Context) error {
	ctx, done := s.tracked(ctx)
	defer done()
	if err := s.agent.Clear(ctx); err != nil {
		// Clear fails only when it is cancelled while waiting its turn.
		return cancelled(err)
	}
	s.touchUpdated()
	s.notify(Update{Kind: UpdatePlan, Plan: []tools.TodoItem{}})
	s.afterClear(ctx) // hooks_lifecycle.go
	return nil
}

// Rewind is agent.Session.Rewind after any running prompt, cancellable by
// Cancel. Errors: ErrInvalid (an unknown checkpoint, a conversation that is
// gone), ErrCancelled, or the rewind's failure.
func (s *Session) Rewind(ctx context.Context, checkpointID string, o agent.RewindOptions) (agent.RewindResult, error) {
	ctx, done := s.tracked(ctx)
	defer done()
	res, err := s.agent.Rewind(ctx, checkpointID, o)
	switch {
	case errors.Is(err, agent.ErrUnknownCheckpoint), errors.Is(err, agent.ErrConversationGone):
		return res, &kindError{kind: ErrInvalid, msg: err.Error(), err: err}
	case err != nil && ctx.Err() != nil:
		return res, cancelled(context.Cause(ctx))
	case err != nil:
		return res, err
	}
	s.touchUpdated()
	return res, nil
}

func (s *Session) slashMode(_ context.Context, args string, _ agent.Listener) (Result, error) {
	if args == "" {
		return answer(describeModes(s.agent.Mode())), nil
	}
	m, err := s.SetMode(args)
	if err != nil {
		return Result{}, err
	}
	return answer(fmt.Sprintf("Mode: %s (%s).", m, m.Description())), nil
}

func (s *Session) slashModel(_ context.Context, args string, _ agent.Listener) (Result, error) {
	if args == "" {
		return answer(s.describeModels()), nil
	}
	ch := ModelChoice{Model: args}
	if _, ok := s.c.preset(args); ok {
		ch = ModelChoice{Preset: args}
	}
	cur, err := s.SetModel(ch)
	if err != nil {
		return Result{}, err
	}
	return answer(fmt.Sprintf("Model: %s (%s, %s), from the next request on.", cur.Model, cur.Provider, cur.BaseURL)), nil
}

func (s *Session) slashClear(ctx context.Context, _ string, _ agent.Listener) (Result, error) {
	if err := s.Clear(ctx); err != nil {
		return Result{}, err
	}
	return answer("Cleared the conversation."), nil
}

func (s *Session) slashCompact(ctx context.Context, instructions string, l agent.Listener) (Result, error) {
	c, err := s.Compact(agent.WithCompactInstructions(ctx, instructions), l)
	switch {
	case errors.Is(err, ErrModelUnavailable), errors.Is(err, ErrCancelled):
		return Result{Compaction: &c}, err
	case err != nil:
		return Result{Compaction: &c}, fmt.Errorf("compact: %w", err)
	}
	res := answer(fmt.Sprintf("Compacted: about %d → %d tokens (%d tool outputs elided, %d messages summarised).",
		c.BeforeTokens, c.AfterTokens, c.Elided, c.Summarised))
	if c.Elided == 0 && c.Summarised == 0 {
		res = answer(fmt.Sprintf("Nothing to compact (about %d tokens, all recent).", c.BeforeTokens))
	}
	res.Compaction = &c
	return res, nil
}

// answer is a built-in command's result: its message, the turn over.
func answer(text string) Result {
	return Result{Outcome: agent.Outcome{StopReason: agent.StopEndTurn, Text: text}}
}
