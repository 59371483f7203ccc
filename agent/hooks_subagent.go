package agent

import (
	"context"
	"sync/atomic"

	"github.com/agent-lsp/agent-lsp/provider"
)

// defaultSubagentType is the agent_type of a task subagent without a
// definition, as Claude Code names its own.
const defaultSubagentType = "general-purpose"

// subagentHooks are a task subagent's hooks: the parent's around its tool
// calls and compactions; when the subagent would end its turn, the
// SubagentStop hooks are asked instead of Stop (which speaks of the main
// agent's turn), so a hook can send the subagent on as Stop sends the
// main agent (at most maxStopContinues times, within the subagent's own
// round and call limits).
type subagentHooks struct {
	Hooks
	parentID  string
	agentType string
	child     atomic.Pointer[Session] // set once the child session exists
}

// childHooks are the hooks of a subagent of session parentID (def: its
// definition, nil for the built-in one); nil without hooks.
func childHooks(h Hooks, parentID string, def *SubagentDef) *subagentHooks {
	if h == nil {
		return nil
	}
	t := defaultSubagentType
	if def != nil && def.Name != "" {
		t = def.Name
	}
	return &subagentHooks{Hooks: h, parentID: parentID, agentType: t}
}

// hooks is c as a Config's Hooks (a nil interface without hooks).
func (c *subagentHooks) hooks() Hooks {
	if c == nil {
		return nil
	}
	return c
}

// bind names the child session the hooks belong to.
func (c *subagentHooks) bind(child *Session) {
	if c != nil {
		c.child.Store(child)
	}
}

func (c *subagentHooks) Stop(ctx context.Context, _ string, active bool) string {
	child := c.child.Load()
	if child == nil {
		return ""
	}
	return c.Hooks.SubagentStop(ctx, c.parentID, child.ID(), c.agentType, lastAssistantText(child.History()), active)
}

// lastAssistantText is the text of the last assistant message of h.
func lastAssistantText(h []provider.Message) string {
	for i := len(h) - 1; i >= 0; i-- {
		if h[i].Role == provider.RoleAssistant && h[i].Text != "" {
			return h[i].Text
		}
	}
	return ""
}
