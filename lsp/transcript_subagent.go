package lsp

import (
	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/tools"
)

// subagentTranscript answers agent/transcript {sessionId,
// parentToolCallId}: the conversation of the subagent that task call
// started, in a session transcript's shape; its totals are the child's
// own, its title the session's.
func subagentTranscript(sess *session, callID string) (transcriptResult, error) {
	entries, t, ok := sess.ctl.SubagentTranscript(callID)
	if !ok {
		return transcriptResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams,
			"no subagent of tool call %q in session %q", callID, sess.id)
	}
	out := make([]any, 0, len(entries))
	for _, e := range entries {
		out = append(out, encodeEntry(e))
	}
	return transcriptResult{SessionID: sess.id, Title: sess.ctl.Title(), Mode: string(sess.agent.Mode()),
		Entries: out, Plan: []tools.TodoItem{}, Totals: totalsOf(t)}, nil
}
