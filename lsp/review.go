package lsp

import (
	"context"
	"encoding/json"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

// The decisions of an agent/review answer, exactly as the contract names them.
const (
	reviewAccept  = "accept"
	reviewReject  = "reject"
	reviewPartial = "partial"
)

// reviewParams is agent/review: an edit proposal, hunk by hunk.
type reviewParams struct {
	SessionID  string       `json:"sessionId"`
	ToolCallID string       `json:"toolCallId"`
	Tool       string       `json:"tool"`
	Summary    string       `json:"summary"`
	Path       string       `json:"path"` // relative to the workspace
	URI        string       `json:"uri"`
	Risk       string       `json:"risk"`
	Reasons    []string     `json:"reasons,omitempty"`
	Hunks      []reviewHunk `json:"hunks"`
}

// reviewHunk is one hunk. Lines are 0-based and endLine is exclusive, as
// in an LSP Range: the hunk replaces {startLine:0}–{endLine:0} of the
// text, all of oldText, with newText; startLine == endLine inserts.
type reviewHunk struct {
	ID        int    `json:"id"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	OldText   string `json:"oldText"`
	NewText   string `json:"newText"`
	Diff      string `json:"diff"` // for display: shown as permission.Visible renders it
}

// reviewAnswer is the editor's answer to agent/review.
type reviewAnswer struct {
	Decision      string `json:"decision"`
	AcceptedHunks []int  `json:"acceptedHunks"`
	Feedback      string `json:"feedback"`
}

var _ permission.Reviewer = editorApprover{}

// Review implements permission.Reviewer: a client that declared
// experimental.agentReview gets agent/review, any other Approve's question
// (agent/approve or the popup, whose answer takes or leaves every hunk). A
// null answer, an unknown decision, an error or a request dropped by the
// client is a Deny.
func (a editorApprover) Review(ctx context.Context, act permission.Action, offerSession bool) (permission.Review, error) {
	if !a.s.caps().review || act.Edit == nil {
		d, err := a.Approve(ctx, act, offerSession)
		return permission.Review{Decision: d}, err
	}
	params := reviewRequest(ctx, act)

	p := progressFrom(ctx)
	p.report("Waiting for review")
	defer p.report(runningMessage(act.Tool))

	var answer *reviewAnswer
	if err := a.ask(ctx, "agent/review", "review", act.Tool, params, &answer); err != nil {
		return permission.Review{}, err
	}
	if answer == nil {
		return permission.Review{Decision: permission.Deny}, nil
	}
	r := permission.Review{Feedback: answer.Feedback}
	switch answer.Decision {
	case reviewAccept:
		r.Decision = permission.AllowOnce
	case reviewPartial:
		r.Decision = permission.AllowOnce
		r.Accepted = append([]int{}, answer.AcceptedHunks...) // never nil: nil means every hunk
	case reviewReject:
		r.Decision = permission.Deny
	default:
		a.s.log.Info("unknown review decision; denying", zap.String("decision", answer.Decision))
		r.Decision = permission.Deny
	}
	return r, nil
}

// reviewRequest is the agent/review of an edit action.
func reviewRequest(ctx context.Context, act permission.Action) reviewParams {
	p := reviewParams{
		SessionID: sessionFrom(ctx), ToolCallID: act.CallID, Tool: act.Tool, Summary: permission.VisibleLine(act.Summary, 0),
		Path: act.Path, URI: string(pathToURI(act.Edit.File)), Risk: act.Risk.String(), Reasons: visibleLines(act.Reasons),
		Hunks: reviewHunks(act.Edit),
	}
	return p
}

// reviewHunks are the hunks of an edit as agent/review and agent/approve
// send them: 0-based lines, endLine exclusive.
func reviewHunks(e *permission.EditProposal) []reviewHunk {
	hunks := make([]reviewHunk, len(e.Hunks))
	for i, h := range e.Hunks {
		// permission.Hunk lines are 1-based and inclusive.
		hunks[i] = reviewHunk{ID: h.ID, StartLine: h.StartLine - 1, EndLine: h.EndLine,
			OldText: h.OldText, NewText: h.NewText, Diff: permission.Visible(h.Diff)}
	}
	return hunks
}

// experimentalFlag reads a boolean of capabilities.experimental, which may
// be anything: not an object, or not a boolean there, is false.
func experimentalFlag(raw json.RawMessage, name string) bool {
	var fields map[string]json.RawMessage
	if editorjson.Unmarshal(raw, &fields) != nil {
		return false
	}
	var on bool
	return json.Unmarshal(fields[name], &on) == nil && on
}

type sessionKey struct{}

// withSession marks ctx as a prompt of the session id: the approver names
// it in agent/review.
func withSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionKey{}, id)
}

func sessionFrom(ctx context.Context) string {
	id, _ := ctx.Value(sessionKey{}).(string)
	return id
}
