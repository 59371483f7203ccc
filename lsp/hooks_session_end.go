package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// endSessions runs the SessionEnd hooks (reason "other") of the sessions
// the daemon still holds when it ends, after their prompts stopped and
// before the sandbox its hooks run in goes; each hook is bounded, so a
// hung one does not hold the daemon's exit.
func (s *server) endSessions() {
	s.mu.Lock()
	ctl := s.ctl
	s.mu.Unlock()
	if ctl != nil {
		ctl.EndSessions(context.Background(), control.EndOther)
	}
}
