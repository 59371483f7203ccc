package agent

// UseContextWindow sets the budget from a context window learnt after the
// model was set (the server's answer to a discovery, which comes in the
// background): WindowBudget(window). It applies only while the session
// still talks to model and neither the session's Config (a fixed budget)
// nor the model settings (a preset's window) said otherwise; the result
// says whether it did. Nothing is stored: a resumed session learns again.
func (s *Session) UseContextWindow(model string, window int) bool {
	if window <= 0 {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.budgetFixed || s.model.Model != model || s.model.ContextWindow > 0 {
		return false
	}
	s.model.budget = WindowBudget(window)
	return true
}

// Budget is the most tokens the session's next request may hold.
func (s *Session) Budget() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model.budget
}
