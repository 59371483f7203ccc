package control

import (
	"context"
	"fmt"

	"github.com/agent-lsp/agent-lsp/agent"
)

// Hooks are the user's hooks (package hooks) as a session runs them: the
// agent's points, and the prompt's own.
type Hooks interface {
	agent.Hooks
	// PromptSubmit may block a prompt before any request (reason is for
	// the user) or add context to it.
	PromptSubmit(ctx context.Context, sessionID, prompt string) (block bool, reason, context string)
	// SessionStart returns context for the session's first prompt
	// (source "startup" or "resume").
	SessionStart(ctx context.Context, sessionID, source string) string
}

// ErrBlockedByHook is a prompt a UserPromptSubmit hook refused.
type ErrBlockedByHook struct{ Reason string }

func (e ErrBlockedByHook) Error() string {
	return fmt.Sprintf("a UserPromptSubmit hook blocked the prompt: %s", e.Reason)
}

// promptHooks runs a prompt's hooks: SessionStart before the session's
// first prompt, then UserPromptSubmit. It returns the text to send, or
// the refusal.
func (s *Session) promptHooks(ctx context.Context, text string) (string, error) {
	h := s.b.Hooks
	if h == nil {
		return text, nil
	}
	s.mu.Lock()
	first := !s.hooksStarted
	s.hooksStarted = true
	s.mu.Unlock()
	if first {
		source := "startup"
		if len(s.agent.History()) > 1 {
			source = "resume"
		}
		if extra := h.SessionStart(ctx, s.id, source); extra != "" {
			text += "\n\n[session start context from a hook]\n" + extra
		}
	}
	block, reason, extra := h.PromptSubmit(ctx, s.id, text)
	if block {
		if reason == "" {
			reason = "(no reason given)"
		}
		return "", ErrBlockedByHook{Reason: reason}
	}
	if extra != "" {
		text += "\n\n[context from a hook]\n" + extra
	}
	return text, nil
}
