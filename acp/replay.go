package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

// replay sends a stored conversation as session/update, in order: user
// messages, the assistant's reasoning and text, each tool call and its
// result. The entries are the controller's transcript, the one every front
// end draws; a compaction summary has no ACP update kind and is not
// replayed (nor is the system prompt, which the transcript leaves out).
func (s *session) replay(ctx context.Context, entries []control.Entry) {
	for _, e := range entries {
		switch e.Kind {
		case control.EntryUser:
			s.send(ctx, sdk.UpdateUserMessageText(e.Text))
		case control.EntryReasoning:
			s.send(ctx, sdk.UpdateAgentThoughtText(e.Text))
		case control.EntryText:
			s.send(ctx, sdk.UpdateAgentMessageText(e.Text))
		case control.EntryToolCall:
			title, locs := describeCall(s.ws, e.ToolName, e.Arguments)
			s.send(ctx, sdk.StartToolCall(sdk.ToolCallId(e.ToolCallID), title,
				sdk.WithStartKind(kindOf(e.ToolName)), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
				sdk.WithStartLocations(locs), sdk.WithStartRawInput(rawInput(e.Arguments))))
		case control.EntryToolResult:
			// As the live update says it (updates.go resultUpdate): failed
			// for a call that failed or was denied, the status in rawOutput.
			st := sdk.ToolCallStatusCompleted
			if e.Status != tools.StatusCompleted {
				st = sdk.ToolCallStatusFailed
			}
			s.send(ctx, sdk.UpdateToolCall(sdk.ToolCallId(e.ToolCallID), sdk.WithUpdateStatus(st),
				sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(e.Output))}),
				sdk.WithUpdateRawOutput(map[string]any{"status": string(e.Status)})))
		}
	}
}
