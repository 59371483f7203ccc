package acp

import (
	"context"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/permission"
)

// The permission options this agent offers, by id.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optRejectOnce  = "reject_once"
)

// approver asks the client with session/request_permission. The policy
// (permission.Policy) decides what is asked at all: CRITICAL actions are
// refused before any question, reads run without one.
type approver struct{ s *session }

var _ permission.Approver = (*approver)(nil)

// Approve implements permission.Approver. "Allow always" is offered only
// when the policy offers a session grant (never for HIGH risk). A
// cancelled outcome (the client answers so when the prompt is cancelled)
// and any failure to ask are Deny.
func (a *approver) Approve(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	opts := []sdk.PermissionOption{{OptionId: optAllowOnce, Name: "Allow", Kind: sdk.PermissionOptionKindAllowOnce}}
	if offerSession && act.Risk < permission.High {
		opts = append(opts, sdk.PermissionOption{OptionId: optAllowAlways, Name: "Allow for this session", Kind: sdk.PermissionOptionKindAllowAlways})
	}
	opts = append(opts, sdk.PermissionOption{OptionId: optRejectOnce, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
	// The title and the texts are shown as permission.Visible renders them:
	// what the user reads is what runs (no raw carriage return, escape,
	// bidi control or zero-width character).
	title := fmt.Sprintf("%s [%s risk]", permission.VisibleLine(act.Summary, 0), act.Risk)
	if act.Tool == "run_bash" && a.s.term != nil {
		title += " (" + a.s.term.where(act.Sandboxed) + ")"
	}
	kind := kindOf(act.Tool)
	tc := sdk.ToolCallUpdate{
		ToolCallId: sdk.ToolCallId(act.CallID),
		Title:      &title,
		Kind:       &kind,
		Status:     sdk.Ptr(sdk.ToolCallStatusPending),
		Content:    approvalContent(act),
		RawInput:   actionData(act),
	}
	if act.Path != "" {
		tc.Locations = []sdk.ToolCallLocation{{Path: act.Path}}
	}
	if act.ParentCallID != "" { // a subagent asks (updates_subagent.go)
		tc.Meta = map[string]any{metaParentToolCall: act.ParentCallID}
	}
	resp, err := a.s.peer.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: a.s.id, Options: opts, ToolCall: tc})
	if err != nil {
		if ctx.Err() != nil {
			return permission.Deny, ctx.Err()
		}
		return permission.Deny, fmt.Errorf("session/request_permission: %w", err)
	}
	if resp.Outcome.Selected == nil {
		return permission.Deny, nil // cancelled
	}
	switch resp.Outcome.Selected.OptionId {
	case optAllowOnce:
		return permission.AllowOnce, nil
	case optAllowAlways:
		if offerSession && act.Risk < permission.High {
			return permission.AllowSession, nil
		}
		return permission.AllowOnce, nil
	default:
		return permission.Deny, nil
	}
}

// approvalContent is what the user reads in the question: the diff of an
// edit, the command of a shell call, the reasons for the risk.
func approvalContent(act permission.Action) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	if e := act.Edit; e != nil && fitsOneMessage(e.Before, e.After) {
		d := &sdk.ToolCallContentDiff{Type: "diff", Path: e.File, NewText: e.After}
		if e.Exists {
			old := e.Before
			d.OldText = &old
		}
		out = append(out, sdk.ToolCallContent{Diff: d})
	} else if act.Diff != "" {
		out = append(out, sdk.ToolContent(sdk.TextBlock(permission.Visible(act.Diff))))
	}
	if act.Command != "" {
		out = append(out, sdk.ToolContent(sdk.TextBlock("$ "+permission.Visible(act.Command))))
	}
	for _, r := range act.Reasons {
		out = append(out, sdk.ToolContent(sdk.TextBlock("⚠ "+permission.VisibleLine(r, 0))))
	}
	return out
}

// actionData is the question as data (tool, risk, reasons, command, path),
// so a client never has to parse the title; visibleCommand is the command
// as shown.
func actionData(act permission.Action) map[string]any {
	m := map[string]any{"tool": act.Tool, "risk": act.Risk.String(), "summary": act.Summary}
	if act.Command != "" {
		m["command"] = act.Command // what runs, byte for byte
		m["visibleCommand"] = permission.Visible(act.Command)
	}
	if act.Path != "" {
		m["path"] = act.Path
	}
	if len(act.Reasons) > 0 {
		m["reasons"] = act.Reasons
	}
	return m
}
