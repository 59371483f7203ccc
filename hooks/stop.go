package hooks

import (
	"context"
	"strings"
)

// Stop runs the Stop hooks when the model would end its turn: a non-empty
// answer is why the model must go on (it reads it as the user's words).
// active says the turn already went on once for a Stop hook.
func (r *Runner) Stop(ctx context.Context, sessionID string, active bool) string {
	in := base(sessionID)
	in["stop_hook_active"] = active
	return r.stopLike(ctx, Stop, "", in)
}

// SubagentStop runs the SubagentStop hooks whose matcher matches the
// subagent's type (agentType: its definition's name, or
// "general-purpose") when a task subagent would end: as Stop for the main
// agent, a non-empty answer is why the subagent must go on. sessionID is
// the main agent's session, agentID the subagent's, lastMessage its final
// answer so far.
func (r *Runner) SubagentStop(ctx context.Context, sessionID, agentID, agentType, lastMessage string, active bool) string {
	in := base(sessionID)
	in["stop_hook_active"] = active
	in["agent_id"], in["agent_type"], in["last_assistant_message"] = agentID, agentType, lastMessage
	in["agent_transcript_path"] = ""
	return r.stopLike(ctx, SubagentStop, agentType, in)
}

// stopLike runs a Stop or SubagentStop event: exit 2's stderr and a
// `"decision": "block"` reason (unless `"continue": false` ends the turn
// anyway) are why the agent goes on.
func (r *Runner) stopLike(ctx context.Context, event, match string, in map[string]any) string {
	var reasons []string
	for _, res := range r.runEvent(ctx, event, match, in) {
		switch {
		case res.err != nil:
		case res.exit == 2:
			reasons = append(reasons, strings.TrimSpace(res.stderr))
		case res.exit == 0:
			if a, ok := res.parse(); ok {
				r.system(a)
				if a.Decision == "block" && !a.stops() {
					reasons = append(reasons, a.Reason)
				}
			}
		}
	}
	return join(reasons)
}
