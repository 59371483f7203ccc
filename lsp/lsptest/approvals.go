package lsptest

import (
	"context"
	"encoding/json"
)

// ReviewParams is an agent/review request (docs/protocol.md).
type ReviewParams struct {
	SessionID  string       `json:"sessionId"`
	ToolCallID string       `json:"toolCallId"`
	Tool       string       `json:"tool"`
	Summary    string       `json:"summary"`
	Path       string       `json:"path"`
	URI        string       `json:"uri"`
	Risk       string       `json:"risk"`
	Reasons    []string     `json:"reasons"`
	Hunks      []ReviewHunk `json:"hunks"`
}

// ReviewHunk is one hunk of a review: 0-based lines, endLine exclusive.
type ReviewHunk struct {
	ID        int    `json:"id"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	OldText   string `json:"oldText"`
	NewText   string `json:"newText"`
	Diff      string `json:"diff"`
}

// ReviewAnswer is the answer to agent/review.
type ReviewAnswer struct {
	Decision      string `json:"decision"` // accept, reject or partial
	AcceptedHunks []int  `json:"acceptedHunks,omitempty"`
	Feedback      string `json:"feedback,omitempty"`
}

// ApproveParams is an agent/approve request (docs/protocol.md).
type ApproveParams struct {
	SessionID  string          `json:"sessionId"`
	ToolCallID string          `json:"toolCallId"`
	Tool       string          `json:"tool"`
	Risk       string          `json:"risk"`
	Reasons    []string        `json:"reasons"`
	Summary    string          `json:"summary"`
	Command    string          `json:"command"`
	Path       string          `json:"path"`
	URI        string          `json:"uri"`
	Hunks      []ReviewHunk    `json:"hunks"`
	Options    []ApproveOption `json:"options"`
	// Raw is the request's params exactly as received.
	Raw json.RawMessage `json:"-"`
}

// ApproveOption is one answer agent/approve offers.
type ApproveOption struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Kind  string `json:"kind"`
}

// ApproveAnswer is the answer to agent/approve.
type ApproveAnswer struct {
	OptionID string `json:"optionId"`
}

// approve answers agent/approve with the test's handler (null without one).
func (e *Editor) approve(ctx context.Context, raw json.RawMessage) (*ApproveAnswer, error) {
	var p ApproveParams
	_ = json.Unmarshal(raw, &p)
	p.Raw = raw
	if e.handlers.Approve == nil {
		return nil, nil
	}
	return e.handlers.Approve(ctx, p)
}
