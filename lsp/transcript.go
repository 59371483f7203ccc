package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

type transcriptParams struct {
	sessionRef
	// ParentToolCallID asks for the transcript of the subagent this task
	// call started instead of the session's.
	ParentToolCallID string `json:"parentToolCallId,omitempty"`
}

type transcriptResult struct {
	SessionID string           `json:"sessionId"`
	Title     string           `json:"title"`
	Mode      string           `json:"mode"`
	Entries   []any            `json:"entries"`
	Plan      []tools.TodoItem `json:"plan"`
	Totals    totals           `json:"totals"`
}

// Transcript entries: an agent/update's kind and body without its
// header's sessionId and seq (updates.go), so a view draws both with the
// same code.
type (
	entryKind struct {
		Kind string `json:"kind"`
	}
	userEntry struct {
		entryKind
		textBody
		CheckpointID string `json:"checkpointId,omitempty"`
	}
	textEntry struct {
		entryKind
		textBody
	}
	toolCallEntry struct {
		entryKind
		toolCallBody
	}
	toolResultEntry struct {
		entryKind
		toolResultBody
	}
	compactedEntry struct {
		entryKind
		Summary string `json:"summary"`
	}
)

// transcript serves agent/transcript: a session's conversation for a view
// to draw when it (re)opens it — after a reload, or a session picked from
// the list. A stored session is resumed, as by agent/session.
func (s *server) transcript(_ context.Context, sess *session, p transcriptParams) (transcriptResult, error) {
	if p.ParentToolCallID != "" {
		return subagentTranscript(sess, p.ParentToolCallID) // transcript_subagent.go
	}
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
	k := entryKind{Kind: string(e.Kind)}
	switch e.Kind {
	case control.EntryUser:
		return userEntry{entryKind: k, textBody: textBody{Text: e.Text}, CheckpointID: e.CheckpointID}
	case control.EntryToolCall:
		return toolCallEntry{entryKind: k, toolCallBody: toolCallBody{ToolCallID: e.ToolCallID, Name: e.ToolName, Arguments: e.Arguments}}
	case control.EntryToolResult:
		return toolResultEntry{entryKind: k, toolResultBody: toolResultBody{ToolCallID: e.ToolCallID, Name: e.ToolName,
			Status: string(e.Status), Output: e.Output}}
	case control.EntryCompacted:
		return compactedEntry{entryKind: k, Summary: e.Text}
	}
	return textEntry{entryKind: k, textBody: textBody{Text: e.Text}} // text, reasoning
}
