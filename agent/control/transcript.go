package control

import (
	"encoding/json"
	"strings"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// EntryKind names what a transcript entry is. The names are those of the
// live events a front end already draws (LSP's agent/update kinds), so a
// stored conversation goes through the same renderer as a running one.
type EntryKind string

// The kinds of Entry.
const (
	EntryUser       EntryKind = "user"        // a prompt, with what it attached
	EntryText       EntryKind = "text"        // the model's answer
	EntryReasoning  EntryKind = "reasoning"   // the model's thinking
	EntryToolCall   EntryKind = "tool_call"   // a call the model made
	EntryToolResult EntryKind = "tool_result" // what became of it
	EntryCompacted  EntryKind = "compacted"   // earlier conversation, summarised
)

// Entry is one step of a session's conversation as a user saw it. Only
// the fields of its Kind are set.
type Entry struct {
	Kind EntryKind
	// Text: a prompt (user), an answer (text), thinking (reasoning), or the
	// summary that replaced earlier messages (compacted).
	Text string
	// CheckpointID is a prompt's checkpoint, when it has one (user): the
	// point a rewind can go back to.
	CheckpointID string
	ToolCallID   string // tool_call, tool_result
	ToolName     string // tool_call, tool_result
	// Arguments are a call's arguments as JSON: the model's object, or a
	// JSON string holding what it sent when that was not valid JSON.
	Arguments json.RawMessage
	Status    tools.Status // tool_result: completed, failed or denied
	Output    string       // tool_result: what the model read
}

// Transcript is the session's conversation, in order, for a front end to
// draw when it (re)opens the session.
func (s *Session) Transcript() []Entry {
	return TranscriptOf(s.agent.History(), s.agent.Checkpoints())
}

// TranscriptOf turns a history into the entries a user saw: user prompts
// as sent (the selection and files they attached included, the mode note
// the agent added for the model left out), the assistant's
// reasoning, text and tool calls, each tool result with its status, and a
// compacted entry where a summary replaced earlier messages. Other system
// messages (the system prompt) are not the conversation; a result whose
// call was compacted away is left out (it would answer nothing shown).
func TranscriptOf(history []provider.Message, checkpoints []agent.Checkpoint) []Entry {
	byIndex := map[int]agent.Checkpoint{} // history index of a prompt's user message → its checkpoint
	for _, c := range checkpoints {
		if c.HistoryLen >= 0 {
			byIndex[c.HistoryLen] = c
		}
	}
	calls := map[string]string{} // tool call id → tool name
	out := []Entry{}
	for i, m := range history {
		switch m.Role {
		case provider.RoleSystem:
			if summary, ok := agent.SummaryOf(m); ok {
				out = append(out, Entry{Kind: EntryCompacted, Text: summary})
			}
		case provider.RoleUser:
			cp, known := byIndex[i]
			if text := withoutModeNote(m.Text, cp.Prompt); text != "" {
				e := Entry{Kind: EntryUser, Text: text}
				if known {
					e.CheckpointID = cp.ID
				}
				out = append(out, e)
			}
		case provider.RoleAssistant:
			if m.Reasoning != "" {
				out = append(out, Entry{Kind: EntryReasoning, Text: m.Reasoning})
			}
			if m.Text != "" {
				out = append(out, Entry{Kind: EntryText, Text: m.Text})
			}
			for _, c := range m.ToolCalls {
				calls[c.ID] = c.Name
				out = append(out, Entry{Kind: EntryToolCall, ToolCallID: c.ID, ToolName: c.Name, Arguments: arguments(c.Arguments)})
			}
		case provider.RoleTool:
			name, known := calls[m.ToolCallID]
			if !known {
				continue
			}
			out = append(out, Entry{Kind: EntryToolResult, ToolCallID: m.ToolCallID, ToolName: name,
				Status: resultStatus(m), Output: m.Text})
		}
	}
	return out
}

// arguments are a call's stored arguments as JSON, as the live tool_call
// event carries them (agent's argumentsJSON): the model's JSON, or a
// string when it was invalid.
func arguments(stored string) json.RawMessage {
	if json.Valid([]byte(stored)) {
		return json.RawMessage(stored)
	}
	s, _ := json.Marshal(stored) // a string always marshals
	return s
}

// resultStatus is a stored result's status: the history keeps whether it
// was an error and whether that error was a refusal.
func resultStatus(m provider.Message) tools.Status {
	switch {
	case m.Denied:
		return tools.StatusDenied
	case m.IsError:
		return tools.StatusFailed
	}
	return tools.StatusCompleted
}

// withoutModeNote is a stored user message as the user typed it: the
// agent stores a prompt with its mode's note for the model ("\n\n(Mode:
// plan. ...)") as the last paragraph, and a transcript shows the user's
// words. The note is cut only when it is the last paragraph and the prompt
// as typed (its checkpoint's, when known) did not end that way itself.
func withoutModeNote(text, typed string) string {
	i := strings.LastIndex(text, "\n\n(Mode: ")
	if i < 0 || !strings.HasSuffix(text, ")") || strings.Contains(typed, "(Mode: ") {
		return text
	}
	return text[:i]
}
