package control

import (
	"context"
	"fmt"
	"strings"

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
	// (source "startup" or "resume"), and the first after /clear
	// ("clear") or a compaction ("compact").
	SessionStart(ctx context.Context, sessionID, source string) string
	LifecycleHooks // hooks_lifecycle.go
	// Describe lists the hooks for /hooks; TrustWorkspace makes the
	// workspace's run, as they are now.
	Describe() string
	TrustWorkspace() (string, error)
}

// slashHooks is /hooks: the hooks, and /hooks trust.
func (s *Session) slashHooks(_ context.Context, args string, _ agent.Listener) (Result, error) {
	answer := func(text string) (Result, error) {
		return Result{Outcome: agent.Outcome{StopReason: agent.StopEndTurn, Text: text}}, nil
	}
	h := s.b.Hooks
	switch strings.TrimSpace(args) {
	case "":
		if h == nil {
			return answer("No hooks. Yours come from initializationOptions.hooks or the chat's --settings; a workspace's from .agents/settings.json.")
		}
		return answer(h.Describe())
	case "trust":
		if h == nil {
			return Result{}, invalidf("this workspace has no hooks (.agents/settings.json)")
		}
		msg, err := h.TrustWorkspace()
		if err != nil {
			return Result{}, invalidf("%v", err)
		}
		return answer(msg)
	}
	return Result{}, invalidf("/hooks takes nothing, or trust")
}

// ErrBlockedByHook is a prompt a UserPromptSubmit hook refused.
type ErrBlockedByHook struct{ Reason string }

func (e ErrBlockedByHook) Error() string {
	return fmt.Sprintf("a UserPromptSubmit hook blocked the prompt: %s", e.Reason)
}

// promptHooks runs a prompt's hooks: SessionStart before the session's
// first prompt (and the first after /clear or a compaction), then
// UserPromptSubmit. It returns the text to send, or
// the refusal.
func (s *Session) promptHooks(ctx context.Context, text string) (string, error) {
	h := s.b.Hooks
	if h == nil {
		return text, nil
	}
	if source := s.startSource(); source != "" {
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
