package agent

import "context"

// Hold waits until no prompt or compaction of the session runs and keeps
// the next ones waiting until release is called: for a front end that
// changes what the session works in (removes its worktree) and must not
// do it under a running tool.
func (s *Session) Hold(ctx context.Context) (release func(), err error) {
	select {
	case s.busy <- struct{}{}:
		return func() { <-s.busy }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// TryHold is Hold when nothing runs; ok is false when a prompt or a
// compaction runs.
func (s *Session) TryHold() (release func(), ok bool) {
	select {
	case s.busy <- struct{}{}:
		return func() { <-s.busy }, true
	default:
		return nil, false
	}
}
