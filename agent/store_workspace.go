package agent

// workspaceRoot is the root the session's tools work in ("" without one),
// stored in its header so that a front end can pick the sessions of a
// workspace (--continue).
func (s *Session) workspaceRoot() string {
	if s.cfg.Env == nil || s.cfg.Env.Workspace == nil {
		return ""
	}
	if roots := s.cfg.Env.Workspace.Roots(); len(roots) > 0 {
		return roots[0]
	}
	return ""
}
