package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The popup's answers, exactly as docs/protocol.md names them; agent/approve
// options carry the same titles.
const (
	actionAllow        = "Allow"
	actionAllowSession = "Allow for this session"
	actionDeny         = "Deny"
	// "Always allow" saves Action.AlwaysRule to a rules file (never
	// offered for HIGH risk).
	actionAlwaysWorkspace = "Always allow in this workspace"
	actionAlwaysUser      = "Always allow for me"
)

// offersAlways reports whether the "Always allow" answers are offered:
// with the session answer, when the policy wrote the rule they save.
func offersAlways(act permission.Action, offerSession bool) bool {
	return offerSession && act.AlwaysRule != "" && act.Risk < permission.High
}

// maxDiffLines bounds the diff shown in a popup: popups are small, and the
// approval is about the gist; the model's tool_call carries the rest.
const maxDiffLines = 40

// editorApprover asks the user in the editor: with agent/approve when the
// client declared experimental.agentApprove (approve.go), else with the
// window/showMessageRequest popup, whose text is the documented format of
// docs/protocol.md (pinned by testdata/approval_popup). Edits to a client
// that declared agentReview go to agent/review (review.go).
type editorApprover struct {
	s  *server
	ws *tools.Workspace // the session's: resolves an action's path to its uri
}

var _ permission.Approver = editorApprover{}

// Approve implements permission.Approver.
func (a editorApprover) Approve(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	p := progressFrom(ctx)
	p.report("Waiting for approval")
	defer p.report(runningMessage(act.Tool))
	if a.s.caps().approve {
		return a.approveRequest(ctx, act, offerSession)
	}
	return a.popup(ctx, act, offerSession)
}

// ask sends the editor one question (method) about tool and decodes its
// answer. An error is ctx's, or the editor's failure to answer (logged,
// and said to the model as "the editor did not answer the <what>
// request"); the caller denies either way.
func (a editorApprover) ask(ctx context.Context, method, what, tool string, params, answer any) error {
	if _, err := a.s.conn.Call(ctx, method, params, answer); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.s.log.Info(what+" request failed; denying", zap.String("tool", tool), zap.Error(err))
		return fmt.Errorf("the editor did not answer the %s request: %w", what, err)
	}
	return nil
}

// popup asks with window/showMessageRequest. A null answer, an unknown
// title or a failed request is Deny.
func (a editorApprover) popup(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	actions := []protocol.MessageActionItem{{Title: actionAllow}}
	if offerSession {
		actions = append(actions, protocol.MessageActionItem{Title: actionAllowSession})
	}
	if offersAlways(act, offerSession) {
		actions = append(actions, protocol.MessageActionItem{Title: actionAlwaysWorkspace}, protocol.MessageActionItem{Title: actionAlwaysUser})
	}
	actions = append(actions, protocol.MessageActionItem{Title: actionDeny})
	params := protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeWarning,
		Message: approvalMessage(act),
		Actions: actions,
	}
	var answer *protocol.MessageActionItem
	if err := a.ask(ctx, "window/showMessageRequest", "approval", act.Tool, params, &answer); err != nil {
		return permission.Deny, err
	}
	switch {
	case answer == nil:
		return permission.Deny, nil
	case answer.Title == actionAllow:
		return permission.AllowOnce, nil
	case answer.Title == actionAllowSession && offerSession:
		return permission.AllowSession, nil
	case answer.Title == actionAlwaysWorkspace && offersAlways(act, offerSession):
		return permission.AllowAlwaysWorkspace, nil
	case answer.Title == actionAlwaysUser && offersAlways(act, offerSession):
		return permission.AllowAlwaysUser, nil
	}
	return permission.Deny, nil
}

// approvalMessage is the popup's text (docs/protocol.md, "Approvals"): the
// tool, the risk and the summary; the command; the compact diff; why. All
// of it comes from the model, so it is shown as permission.Visible renders
// it: no carriage return, escape, bidi control or zero-width character
// reaches the popup raw.
func approvalMessage(a permission.Action) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent-lsp wants to run %s (risk %s): %s", permission.VisibleLine(a.Tool, 0), a.Risk, permission.VisibleLine(a.Summary, 0))
	if a.Command != "" {
		fmt.Fprintf(&b, "\n$ %s", permission.Visible(a.Command))
	}
	if a.Diff != "" {
		b.WriteString("\n")
		b.WriteString(permission.Visible(compactDiff(a.Diff, maxDiffLines)))
	}
	if len(a.Reasons) > 0 {
		fmt.Fprintf(&b, "\nWhy %s: %s", a.Risk, strings.Join(visibleLines(a.Reasons), "; "))
	}
	if a.AlwaysRule != "" && a.Risk < permission.High {
		fmt.Fprintf(&b, "\nAlways allow saves the rule: %s", permission.VisibleLine(a.AlwaysRule, 0))
	}
	return b.String()
}

// visibleLines is each of texts as permission.VisibleLine shows it ([] for
// none, never nil).
func visibleLines(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = permission.VisibleLine(t, 0)
	}
	return out
}

// compactDiff keeps the first lines of a diff and says how many were cut.
func compactDiff(diff string, max int) string {
	lines := strings.Split(strings.TrimRight(diff, "\n"), "\n")
	if len(lines) <= max {
		return strings.Join(lines, "\n")
	}
	return strings.Join(lines[:max], "\n") + fmt.Sprintf("\n… (%d more diff lines)", len(lines)-max)
}
