package lsp

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Every kind of transcript entry is these bytes: the kind first, then the
// same fields, in the same order, as the agent/update of that kind
// without its sessionId and seq (TestEveryUpdateKindsFieldsAndOrder pins
// those), so a view draws a replayed entry and a live update alike.
func TestEveryTranscriptEntrysFieldsAndOrder(t *testing.T) {
	cases := []struct {
		entry control.Entry
		want  string
	}{
		{control.Entry{Kind: control.EntryUser, Text: "fix it", CheckpointID: "cp1"},
			`{"kind":"user","text":"fix it","checkpointId":"cp1"}`},
		{control.Entry{Kind: control.EntryUser, Text: "no checkpoint"},
			`{"kind":"user","text":"no checkpoint"}`},
		{control.Entry{Kind: control.EntryText, Text: "Done."}, `{"kind":"text","text":"Done."}`},
		{control.Entry{Kind: control.EntryReasoning, Text: "hm"}, `{"kind":"reasoning","text":"hm"}`},
		{control.Entry{Kind: control.EntryToolCall, ToolCallID: "c1", ToolName: "read_file", Arguments: json.RawMessage(`{"path":"a.go"}`)},
			`{"kind":"tool_call","toolCallId":"c1","name":"read_file","arguments":{"path":"a.go"}}`},
		{control.Entry{Kind: control.EntryToolResult, ToolCallID: "c1", ToolName: "read_file", Status: tools.StatusCompleted, Output: "package a"},
			`{"kind":"tool_result","toolCallId":"c1","name":"read_file","status":"completed","output":"package a"}`},
		{control.Entry{Kind: control.EntryCompacted, Text: "earlier: a fix"}, `{"kind":"compacted","summary":"earlier: a fix"}`},
	}
	for _, tc := range cases {
		got, err := json.Marshal(encodeEntry(tc.entry))
		if err != nil {
			t.Fatalf("%s: %v", tc.entry.Kind, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s entry\n got %s\nwant %s", tc.entry.Kind, got, tc.want)
		}
	}
}
