package agent

// Worktree is the git worktree a session works in (its workspace root),
// made for it from the user's checkout. It is kept in the session's
// header, so that the session list shows it and a restarted front end
// binds the resumed session to it again.
type Worktree struct {
	Path   string `json:"path"`   // the worktree's directory
	Branch string `json:"branch"` // the branch made for it
	Base   string `json:"base"`   // the commit it was made from
	Repo   string `json:"repo"`   // the top level of the checkout it was made from
}

// SaveHeader writes the session's file now, with its header, when it has
// none yet: a session that owns a worktree is stored from its creation,
// so the worktree is never left without the session that knows of it.
func (s *Session) SaveHeader() {
	if s.cfg.Store == nil {
		return
	}
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	if len(s.pending) == 0 {
		s.pending = append(s.pending, record{Type: recMode, Mode: s.mode})
	}
	s.mu.Unlock()
	s.commit()
}

// Worktree is the git worktree the session works in (nil: none).
func (s *Session) Worktree() *Worktree { return s.cfg.Worktree }
