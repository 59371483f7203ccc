package lsp

import (
	"context"
	"encoding/json"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

type transcriptResult struct {
	SessionID string           `json:"sessionId"`
	Title     string           `json:"title"`
	Mode      string           `json:"mode"`
	Entries   []any            `json:"entries"`
	Plan      []tools.TodoItem `json:"plan"`
	Totals    totals           `json:"totals"`
}

// Transcript entries: an agent/update's kind and fields without its
// header (sessionId, seq), so a view draws them with the same code.
type (
	userEntry struct {
		Kind         string `json:"kind"`
		Text         string `json:"text"`
		CheckpointID string `json:"checkpointId,omitempty"`
	}
	textEntry struct {
		Kind string `json:"kind"`
		Text string `json:"text"`
	}
	toolCallEntry struct {
		Kind       string          `json:"kind"`
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	}
	toolResultEntry struct {
		Kind       string `json:"kind"`
		ToolCallID string `json:"toolCallId"`
		Name       string `json:"name"`
		Status     string `json:"status"`
		Output     string `json:"output"`
	}
	compactedEntry struct {
		Kind    string `json:"kind"`
		Summary string `json:"summary"`
	}
)

// transcript serves agent/transcript: a session's conversation for a view
// to draw when it (re)opens it — after a reload, or a session picked from
// the list. A stored session is resumed, as by agent/session.
func (s *server) transcript(_ context.Context, sess *session, _ sessionStateParams) (any, error) {
	plan := sess.agent.Plan()
	if plan == nil {
		plan = []tools.TodoItem{}
	}
	entries := []any{}
	for _, e := range sess.ctl.Transcript() {
		entries = append(entries, encodeEntry(e))
	}
	return transcriptResult{SessionID: sess.id, Title: sess.ctl.Title(), Mode: string(sess.agent.Mode()),
		Entries: entries, Plan: plan, Totals: totalsOf(sess.agent.Totals())}, nil
}

func encodeEntry(e control.Entry) any {
	kind := string(e.Kind)
	switch e.Kind {
	case control.EntryUser:
		return userEntry{Kind: kind, Text: e.Text, CheckpointID: e.CheckpointID}
	case control.EntryToolCall:
		return toolCallEntry{Kind: kind, ToolCallID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments}
	case control.EntryToolResult:
		return toolResultEntry{Kind: kind, ToolCallID: e.ToolCallID, Name: e.ToolName, Status: string(e.Status), Output: e.Output}
	case control.EntryCompacted:
		return compactedEntry{Kind: kind, Summary: e.Text}
	}
	return textEntry{Kind: kind, Text: e.Text} // text, reasoning
}
