package agent

import (
	"context"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Hooks are the user's hooks at the agent's points (package hooks): around
// each tool call, before a compaction, and when the model (or a task
// subagent) would end its turn.
type Hooks interface {
	BeforeCall(ctx context.Context, sessionID string, c tools.Call) (block, ask bool, reason string)
	AfterCall(ctx context.Context, sessionID string, c tools.Call, o tools.Outcome) string
	// PreCompact runs before a compaction (trigger "manual" or "auto";
	// instructions: /compact's argument).
	PreCompact(ctx context.Context, sessionID, trigger, instructions string)
	// Stop returns why the turn must go on ("": it may end); active says
	// it already went on once for a Stop hook.
	Stop(ctx context.Context, sessionID string, active bool) string
	// SubagentStop is Stop for a task subagent (hooks_subagent.go):
	// sessionID is the main agent's, agentID the subagent's.
	SubagentStop(ctx context.Context, sessionID, agentID, agentType, lastMessage string, active bool) string
}

// maxStopContinues bounds how often Stop hooks keep one prompt going: a
// hook that always blocks must not loop the model forever.
const maxStopContinues = 3

// callHooks binds Hooks to a session for the tool registry.
type callHooks struct {
	h  Hooks
	id string
}

func (c callHooks) BeforeCall(ctx context.Context, call tools.Call) (bool, bool, string) {
	return c.h.BeforeCall(ctx, c.id, call)
}

func (c callHooks) AfterCall(ctx context.Context, call tools.Call, o tools.Outcome) string {
	return c.h.AfterCall(ctx, c.id, call, o)
}

// registryHooks are the session's hooks as the registry takes them (nil:
// none).
func (s *Session) registryHooks() tools.CallHooks {
	if s.cfg.Hooks == nil {
		return nil
	}
	return callHooks{h: s.cfg.Hooks, id: s.id}
}

// preCompact runs the PreCompact hooks.
func (s *Session) preCompact(ctx context.Context, manual bool) {
	if s.cfg.Hooks == nil {
		return
	}
	trigger := "auto"
	if manual {
		trigger = "manual"
	}
	s.cfg.Hooks.PreCompact(ctx, s.id, trigger, compactInstructions(ctx))
}

// stopHook asks the Stop hooks whether the turn may end; when one says
// go on, its reason joins the history as the user's words and the loop
// makes another round (at most maxStopContinues times a prompt).
func (s *Session) stopHook(ctx context.Context, continues *int) bool {
	if s.cfg.Hooks == nil || *continues >= maxStopContinues || ctx.Err() != nil {
		return false
	}
	reason := s.cfg.Hooks.Stop(ctx, s.id, *continues > 0)
	if reason == "" {
		return false
	}
	*continues++
	event := "Stop"
	if _, ok := s.cfg.Hooks.(*subagentHooks); ok {
		event = "SubagentStop"
	}
	s.append(provider.Message{Role: provider.RoleUser, Text: "[a " + event + " hook says the task is not done] " + reason})
	s.commit()
	return true
}
