package tools

import (
	"context"

	"github.com/agent-lsp/agent-lsp/permission"
)

// after runs the PostToolUse side of the hooks on a call that ran: what
// they say is added to the result the model reads.
func (ex *execution) after(ctx context.Context, o Outcome) Outcome {
	if ex.opts.Hooks == nil {
		return o
	}
	if note := ex.opts.Hooks.AfterCall(ctx, o.Call, o); note != "" {
		o.Output += "\n\n[hook] " + note
	}
	return o
}

// askedByHook is an action a hook wants put to the user: HIGH, so no
// session grant, auto-allow or mode lets it through without a question
// (only --yes, the user's own standing answer, still does).
func askedByHook(a permission.Action, reason string) permission.Action {
	a.ReadOnly, a.WorkspaceEdit, a.Sandboxed = false, false, false
	a.Risk = max(a.Risk, permission.High)
	a.Reasons = append(a.Reasons, "a hook asks: "+nonEmptyReason(reason))
	return a
}

// nonEmptyReason is a hook's reason, or a word when it gave none.
func nonEmptyReason(reason string) string {
	if reason == "" {
		return "(no reason given)"
	}
	return reason
}
