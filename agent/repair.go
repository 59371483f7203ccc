package agent

import (
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// lostResult answers a tool call whose stored result could not be read back.
const lostResult = "(the result of this call was lost when the session was restored)"

// repairHistory makes a history read back from a damaged file valid for
// every dialect: each assistant tool call is followed by exactly one result,
// in call order (a lost one becomes an error result), and a result that
// answers no call is dropped. A sound history comes back unchanged.
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
				logger.Warn("session file: a tool call lost its result", zap.String("tool_call_id", c.ID))
				r = provider.Message{Role: provider.RoleTool, ToolCallID: c.ID, Text: lostResult, IsError: true}
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
