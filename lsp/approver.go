package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
)

// The popup's answers, exactly as the contract names them.
const (
	actionAllow        = "Allow"
	actionAllowSession = "Allow for this session"
	actionDeny         = "Deny"
)

// maxDiffLines bounds the diff shown in a popup: popups are small, and the
// approval is about the gist; the model's tool_call carries the rest.
const maxDiffLines = 40

// popupApprover asks the user with window/showMessageRequest. A null
// answer, an unknown title or a failed request is Deny.
type popupApprover struct {
	s *server
}

var _ permission.Approver = popupApprover{}

// Approve implements permission.Approver.
func (a popupApprover) Approve(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	actions := []protocol.MessageActionItem{{Title: actionAllow}}
	if offerSession {
		actions = append(actions, protocol.MessageActionItem{Title: actionAllowSession})
	}
	actions = append(actions, protocol.MessageActionItem{Title: actionDeny})
	params := protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeWarning,
		Message: approvalMessage(act),
		Actions: actions,
	}

	p := progressFrom(ctx)
	p.report("Waiting for approval")
	defer p.report(runningMessage(act.Tool))

	var answer *protocol.MessageActionItem
	if _, err := a.s.conn.Call(ctx, "window/showMessageRequest", params, &answer); err != nil {
		if ctx.Err() != nil {
			return permission.Deny, ctx.Err()
		}
		a.s.log.Info("approval request failed; denying", zap.String("tool", act.Tool), zap.Error(err))
		return permission.Deny, fmt.Errorf("the editor did not answer the approval request: %w", err)
	}
	switch {
	case answer == nil:
		return permission.Deny, nil
	case answer.Title == actionAllow:
		return permission.AllowOnce, nil
	case answer.Title == actionAllowSession && offerSession:
		return permission.AllowSession, nil
	}
	return permission.Deny, nil
}

// approvalMessage names the tool, the action (path and compact diff, or
// the command) and the risk.
func approvalMessage(a permission.Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent-lsp wants to run %s (risk %s): %s", a.Tool, a.Risk, a.Summary)
	if a.Command != "" {
		fmt.Fprintf(&b, "\n$ %s", a.Command)
	}
	if a.Diff != "" {
		b.WriteString("\n")
		b.WriteString(compactDiff(a.Diff, maxDiffLines))
	}
	if len(a.Reasons) > 0 {
		fmt.Fprintf(&b, "\nWhy %s: %s", a.Risk, strings.Join(a.Reasons, "; "))
	}
	return b.String()
}

// compactDiff keeps the first lines of a diff and says how many were cut.
func compactDiff(diff string, max int) string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	if len(lines) <= max {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:max], "\n") + fmt.Sprintf("\n… (%d more diff lines)", len(lines)-max)
}
