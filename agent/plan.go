package agent

import (
	"context"
	"slices"

	"github.com/agent-lsp/agent-lsp/tools"
)

// Plan returns the session's current plan (the last todo_write list).
func (s *Session) Plan() []tools.TodoItem {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.plan)
}

// setPlan is the Env's plan sink: todo_write replaces the plan, which is
// stored with the round and reported as a plan event of the running prompt.
func (s *Session) setPlan(items []tools.TodoItem) {
	items = slices.Clone(items)
	s.mu.Lock()
	s.plan = items
	if s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recPlan, Items: slices.Clone(items)})
	}
	out := s.out
	s.mu.Unlock()
	if out != nil {
		out.emit(Event{Kind: EventPlan, Plan: slices.Clone(items)})
	}
}

// Clear empties the conversation: only the system prompt stays, and the
// plan is dropped. It waits for a running prompt of the session to end
// (or for ctx). The usage totals stay: they are what the session cost.
func (s *Session) Clear(ctx context.Context) error {
	select {
	case s.busy <- struct{}{}:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	defer func() { <-s.busy }()
	s.mu.Lock()
	h := slices.Clone(s.history[:leadingSystem(s.history)])
	remapCheckpoints(s.cp.list, s.history, h)
	s.history = h
	s.plan = nil
	s.calib.invalidate()
	if s.cfg.Store != nil && s.started {
		s.pending = append(s.pending, record{Type: recCompaction, History: slices.Clone(h)},
			record{Type: recPlan})
	}
	s.mu.Unlock()
	s.commit()
	return nil
}
