package agent

import (
	"encoding/json"
	"fmt"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// interrupted starts the result given to a tool call whose result was
// never stored: the agent stopped (a crash, kill -9) while it ran, so it
// may have done all, part or none of its work. The model reads it as an
// error and is told what to look at.
const interrupted = "interrupted: the agent stopped before this call finished; check the file"

// commandRunes bounds the command an interrupted result quotes.
const commandRunes = 200

// interruptedResult answers call c as interrupted, naming the file or the
// command where the arguments say.
func interruptedResult(c provider.ToolCall) string {
	var args struct {
		Path    string `json:"path"`
		Command string `json:"command"`
	}
	_ = json.Unmarshal([]byte(c.Arguments), &args) // arguments that are not an object name nothing
	switch {
	case args.Path != "":
		return fmt.Sprintf("%s %s (%s was working on it)", interrupted, args.Path, c.Name)
	case args.Command != "":
		return fmt.Sprintf("%ss the command may have changed: %s", interrupted, shorten(args.Command, commandRunes))
	}
	return fmt.Sprintf("%ss %s may have changed, or run it again", interrupted, c.Name)
}

// repairHistory makes a history read back from its file valid for every
// dialect: each assistant tool call is followed by exactly one result, in
// call order (results are stored as calls finish, in any order; a call
// with none was interrupted and gets an error result saying so), and a
// result that answers no call is dropped. A sound history comes back
// unchanged.
func repairHistory(h []provider.Message, logger *zap.Logger) []provider.Message {
	out := make([]provider.Message, 0, len(h))
	for i := 0; i < len(h); {
		m := h[i]
		if m.Role == provider.RoleTool {
			logger.Warn("session file: dropping a tool result that answers no call", zap.String("tool_call_id", m.ToolCallID))
			i++
			continue
		}
		out = append(out, m)
		i++
		if m.Role != provider.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		results := map[string]provider.Message{}
		for ; i < len(h) && h[i].Role == provider.RoleTool; i++ {
			if _, dup := results[h[i].ToolCallID]; !dup {
				results[h[i].ToolCallID] = h[i]
			}
		}
		for _, c := range m.ToolCalls {
			r, ok := results[c.ID]
			if !ok {
				logger.Warn("session file: a tool call has no stored result; answering it as interrupted",
					zap.String("tool_call_id", c.ID), zap.String("tool", c.Name))
				r = provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Text: interruptedResult(c), IsError: true}
			}
			delete(results, c.ID)
			out = append(out, r)
		}
		for id := range results {
			logger.Warn("session file: dropping a tool result that answers no call", zap.String("tool_call_id", id))
		}
	}
	return out
}
