package control_test

import (
	"reflect"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// TranscriptOf keeps what the user saw: the system prompt is left out, a
// prompt loses the mode note and gets its checkpoint, invalid arguments
// become a JSON string, each result has its status, a result whose call
// was compacted away is dropped.
func TestTranscriptOf(t *testing.T) {
	history := []provider.Message{
		{Role: provider.RoleSystem, Text: "You are a coding agent."},
		{Role: provider.RoleTool, ToolCallID: "gone", Text: "an orphan"},
		{Role: provider.RoleUser, Text: "Plan it.\n\n(Mode: plan. Investigate with the read-only tools.)"},
		{Role: provider.RoleAssistant, Reasoning: "hmm", Text: "Looking.", ToolCalls: []provider.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`},
			{ID: "c2", Name: "run_bash", Arguments: `{"command":`},
			{ID: "c3", Name: "write_file", Arguments: `{}`},
		}},
		{Role: provider.RoleTool, ToolCallID: "c1", Text: "a's text"},
		{Role: provider.RoleTool, ToolCallID: "c2", Text: "bad arguments", IsError: true},
		{Role: provider.RoleTool, ToolCallID: "c3", Text: "denied by the user", IsError: true, Denied: true},
		{Role: provider.RoleAssistant, Text: "Done."},
	}
	got := control.TranscriptOf(history, []agent.Checkpoint{{ID: "cp1", Prompt: "Plan it.", HistoryLen: 2}})
	want := []control.Entry{
		{Kind: control.EntryUser, Text: "Plan it.", CheckpointID: "cp1"},
		{Kind: control.EntryReasoning, Text: "hmm"},
		{Kind: control.EntryText, Text: "Looking."},
		{Kind: control.EntryToolCall, ToolCallID: "c1", ToolName: "read_file", Arguments: []byte(`{"path":"a"}`)},
		{Kind: control.EntryToolCall, ToolCallID: "c2", ToolName: "run_bash", Arguments: []byte(`"{\"command\":"`)},
		{Kind: control.EntryToolCall, ToolCallID: "c3", ToolName: "write_file", Arguments: []byte(`{}`)},
		{Kind: control.EntryToolResult, ToolCallID: "c1", ToolName: "read_file", Status: tools.StatusCompleted, Output: "a's text"},
		{Kind: control.EntryToolResult, ToolCallID: "c2", ToolName: "run_bash", Status: tools.StatusFailed, Output: "bad arguments"},
		{Kind: control.EntryToolResult, ToolCallID: "c3", ToolName: "write_file", Status: tools.StatusDenied, Output: "denied by the user"},
		{Kind: control.EntryText, Text: "Done."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
