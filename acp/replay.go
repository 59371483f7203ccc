package acp

import (
	"context"
	"encoding/json"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// replay sends a stored conversation as session/update, in order: user
// messages, the assistant's reasoning and text, each tool call and its
// result. System messages (the system prompt, compaction summaries) are
// not the user's conversation and are not replayed.
func (s *session) replay(ctx context.Context, history []provider.Message, checkpoints []agent.Checkpoint) {
	typed := map[int]string{} // history index of a prompt's user message → the prompt as typed (shortened)
	for _, c := range checkpoints {
		if c.HistoryLen >= 0 {
			typed[c.HistoryLen] = c.Prompt
		}
	}
	calls := map[string]string{} // tool call id → tool name
	for i, m := range history {
		switch m.Role {
		case provider.RoleUser:
			if text := withoutModeNote(m.Text, typed[i]); text != "" {
				s.send(ctx, sdk.UpdateUserMessageText(text))
			}
		case provider.RoleAssistant:
			if m.Reasoning != "" {
				s.send(ctx, sdk.UpdateAgentThoughtText(m.Reasoning))
			}
			if m.Text != "" {
				s.send(ctx, sdk.UpdateAgentMessageText(m.Text))
			}
			for _, c := range m.ToolCalls {
				calls[c.ID] = c.Name
				args := json.RawMessage(c.Arguments)
				if !json.Valid(args) {
					args, _ = json.Marshal(c.Arguments) // a string always marshals
				}
				title, locs := describeCall(s.ws, c.Name, args)
				s.send(ctx, sdk.StartToolCall(sdk.ToolCallId(c.ID), title,
					sdk.WithStartKind(kindOf(c.Name)), sdk.WithStartStatus(sdk.ToolCallStatusInProgress),
					sdk.WithStartLocations(locs), sdk.WithStartRawInput(rawInput(args))))
			}
		case provider.RoleTool:
			status := tools.StatusCompleted
			if _, known := calls[m.ToolCallID]; !known {
				continue // a result whose call was compacted away
			}
			s.send(ctx, sdk.UpdateToolCall(sdk.ToolCallId(m.ToolCallID), sdk.WithUpdateStatus(sdk.ToolCallStatusCompleted),
				sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(m.Text))}),
				sdk.WithUpdateRawOutput(map[string]any{"status": string(status)})))
		}
	}
}

// withoutModeNote is a stored user message as the user typed it: the agent
// stores a prompt with its mode's note for the model ("\n\n(Mode: plan.
// ...)") as the last paragraph, and a replay shows the user's words. The
// note is cut only when it is the last paragraph and the prompt as typed
// (its checkpoint's, when known) did not end that way itself.
func withoutModeNote(text, typed string) string {
	i := strings.LastIndex(text, "\n\n(Mode: ")
	if i < 0 || !strings.HasSuffix(text, ")") || strings.Contains(typed, "(Mode: ") {
		return text
	}
	return text[:i]
}
