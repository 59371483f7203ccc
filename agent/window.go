package agent

import "github.com/agent-lsp/agent-lsp/provider"

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
	if s.model.Model != model || s.model.ContextWindow > 0 {
		return false
	}
	s.model.window = window // what the server runs bounds the output, whatever the budget
	if s.budgetFixed {
		return false
	}
	s.model.budget = WindowBudget(window)
	return true
}

// outputRoom is the max_tokens of a request holding msgs and specs: the
// configured MaxTokens (0: the dialects' default, provider.DefaultMaxTokens
// at most), but never more than the window leaves after the prompt, by the
// calibrated estimate with an eighth of it as margin (the estimate is off
// by about a tenth before the server's first count calibrates it). A
// server refuses, or cuts at its window, an answer asked for past it
// (llama.cpp with 4,096 tokens got max_tokens 8192). With the window
// unknown, MaxTokens as configured.
func (s *Session) outputRoom(m modelState, msgs []provider.Message, specs []provider.ToolSpec) int {
	if m.window <= 0 {
		return m.MaxTokens
	}
	s.mu.Lock()
	est := s.calib.estimate(msgs, specs)
	s.mu.Unlock()
	left := m.window - est - est/8
	want := m.MaxTokens
	if want <= 0 {
		if left >= provider.DefaultMaxTokens {
			return 0 // the dialect's default fits
		}
		want = provider.DefaultMaxTokens
	}
	return max(min(want, left), 1)
}

// Budget is the most tokens the session's next request may hold.
func (s *Session) Budget() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model.budget
}
