package lsp

// The agent/update entries of a subagent (updates_subagent.go): the kinds
// of a prompt's, marked with the task call's id.
func init() {
	h := func(k string) subagentHeader {
		return subagentHeader{updateHeader: exampleHeader(k), ParentToolCallID: "call_task1"}
	}
	files := subagentsResult{Subagents: []subagentInfo{{Name: "reviewer", Description: "Reviews a diff",
		Tools: []string{"read_file", "grep"}, Model: "deepseek", Prompt: "Review the change.", Path: "/w/.agents/agents/reviewer.md",
		Source: "workspace", Hash: "9f2c", Trust: "untrusted", Problem: "the name \"reviewer\" is taken by an earlier file"}}}
	wireExamples = append(wireExamples,
		wireExample{name: "agent.subagents", method: "agent/subagents", from: "editor", params: noParams{}, result: files},
		wireExample{name: "agent.subagentTrust", method: "agent/subagentTrust", from: "editor",
			params: subagentTrustParams{Name: "reviewer", Hash: "9f2c", Trust: "always"}, result: files},
		wireExample{name: "agent.update.subagent.text", method: "agent/update", from: "daemon",
			params: subagentTextUpdate{subagentHeader: h("text"), textBody: textBody{Text: "parser.go has two"}}},
		wireExample{name: "agent.update.subagent.tool_call", method: "agent/update", from: "daemon",
			params: subagentToolCallUpdate{subagentHeader: h("tool_call"), toolCallBody: exampleToolCall}},
		wireExample{name: "agent.update.subagent.tool_result", method: "agent/update", from: "daemon",
			params: subagentToolResultUpdate{subagentHeader: h("tool_result"), toolResultBody: exampleToolResult}},
		wireExample{name: "agent.update.subagent.round_end", method: "agent/update", from: "daemon",
			params: subagentRoundEndUpdate{subagentHeader: h("round_end"), StopReason: "end_turn", Usage: exampleUsage,
				Cost: &exampleCost, CostKnown: true, Totals: exampleTotals}},
		wireExample{name: "agent.update.subagent.compacted", method: "agent/update", from: "daemon",
			params: subagentCompactedUpdate{subagentHeader: h("compacted"), BeforeTokens: 9000, AfterTokens: 1200,
				Cost: &exampleCost, CostKnown: true, Totals: exampleTotals}},
		wireExample{name: "agent.update.subagent.retry", method: "agent/update", from: "daemon",
			params: subagentRetryUpdate{subagentHeader: h("retry"), Attempt: 2, MaxAttempts: 4, DelayMs: 1500,
				Message: "model API answered 529 Overloaded"}},
		wireExample{name: "agent.update.subagent.error", method: "agent/update", from: "daemon",
			params: subagentErrorUpdate{subagentHeader: h("error"), Message: "model API answered 401"}},
	)
}
