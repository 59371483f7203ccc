package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
)

// The option ids (and kinds) of agent/approve, exactly as docs/protocol.md
// names them.
const (
	optionAllowOnce    = "allow_once"
	optionAllowSession = "allow_session"
	optionDeny         = "deny"
)

// approveParams is agent/approve: the structured form of the popup, for
// clients that declared experimental.agentApprove.
type approveParams struct {
	SessionID  string   `json:"sessionId"`
	ToolCallID string   `json:"toolCallId"`
	Tool       string   `json:"tool"`
	Risk       string   `json:"risk"`    // low, medium or high
	Reasons    []string `json:"reasons"` // [] when none
	Summary    string   `json:"summary"`
	// Command is what runs, byte for byte (run_bash only); VisibleCommand
	// is how to show it: control, bidi and zero-width characters written
	// visibly (permission.Visible). Summary and Reasons are display text
	// and come rendered the same way.
	Command        string `json:"command,omitempty"`
	VisibleCommand string `json:"visibleCommand,omitempty"`
	Path           string `json:"path,omitempty"` // relative to the workspace
	URI            string `json:"uri,omitempty"`
	// Hunks are an edit's change, as in agent/review; absent for other
	// actions and for binary content.
	Hunks   []reviewHunk    `json:"hunks,omitempty"`
	Options []approveOption `json:"options"`
	// ParentToolCallID is set when a subagent asks: its task call's id.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
}

// approveOption is one answer the user may give.
type approveOption struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  string `json:"kind"` // allow_once, allow_session or deny
}

// approveAnswer is the editor's answer to agent/approve.
type approveAnswer struct {
	OptionID string `json:"optionId"`
}

// approveRequest asks with agent/approve. A null answer, an unknown option
// (allow_session included when it was not offered), an error or a request
// dropped by the client is Deny.
func (a editorApprover) approveRequest(ctx context.Context, act permission.Action, offerSession bool) (permission.Decision, error) {
	params := approveRequestParams(ctx, act, offerSession, a.ws.Roots())
	var answer *approveAnswer
	if err := a.ask(ctx, "agent/approve", "approval", act.Tool, params, &answer); err != nil {
		return permission.Deny, err
	}
	switch {
	case answer == nil:
		return permission.Deny, nil
	case answer.OptionID == optionAllowOnce:
		return permission.AllowOnce, nil
	case answer.OptionID == optionAllowSession && offerSession:
		return permission.AllowSession, nil
	case answer.OptionID != optionDeny:
		a.s.log.Info("unknown approval option; denying", zap.String("optionId", answer.OptionID))
	}
	return permission.Deny, nil
}

// approveRequestParams is the agent/approve of an action; the workspace
// roots resolve a relative path to its uri when the action carries no
// absolute one.
func approveRequestParams(ctx context.Context, act permission.Action, offerSession bool, roots []string) approveParams {
	p := approveParams{
		SessionID: sessionFrom(ctx), ToolCallID: act.CallID, Tool: act.Tool,
		Risk: strings.ToLower(act.Risk.String()), Reasons: visibleLines(act.Reasons),
		Summary: permission.VisibleLine(act.Summary, 0), Path: act.Path, ParentToolCallID: act.ParentCallID,
	}
	if act.Tool == "run_bash" {
		p.Command = act.Command
		p.VisibleCommand = permission.Visible(act.Command)
	}
	if act.Edit != nil {
		p.URI = string(pathToURI(act.Edit.File))
		p.Hunks = reviewHunks(act.Edit)
	} else if abs := actionFile(act.Path, roots); abs != "" {
		p.URI = string(pathToURI(abs))
	}
	p.Options = []approveOption{{ID: optionAllowOnce, Title: actionAllow, Kind: optionAllowOnce}}
	if offerSession {
		p.Options = append(p.Options, approveOption{ID: optionAllowSession, Title: actionAllowSession, Kind: optionAllowSession})
	}
	p.Options = append(p.Options, approveOption{ID: optionDeny, Title: actionDeny, Kind: optionDeny})
	return p
}

// actionFile is the absolute path of an action's workspace-relative path:
// the path itself when absolute (outside the workspace), else the first
// root holding it ("" when none does, or there is no path).
func actionFile(path string, roots []string) string {
	switch {
	case path == "":
		return ""
	case filepath.IsAbs(path):
		return path
	}
	for _, root := range roots {
		abs := filepath.Join(root, filepath.FromSlash(path))
		if _, err := os.Lstat(abs); err == nil {
			return abs
		}
	}
	return ""
}
