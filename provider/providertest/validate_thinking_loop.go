package providertest

import "encoding/json"

// checkOpenToolLoopThinking is the Messages API's rule for a request that
// continues a tool loop with thinking on: the final assistant message
// (before the last tool results) must start with a thinking block, whoever
// produced it. The real API: "When `thinking` is enabled, a final
// `assistant` message must start with a thinking block (preceeding the
// lastmost set of `tool_use` and `tool_result` blocks) ... To avoid this
// requirement, disable `thinking`." A turn made in the other dialect (its
// reasoning unsigned) or with thinking off therefore cannot be continued
// with thinking on. The messages were validated before: the shapes hold.
func checkOpenToolLoopThinking(messages []json.RawMessage) *rejection {
	n := len(messages)
	if n < 2 {
		return nil
	}
	last, _ := decodeObject(messages[n-1])
	prev, _ := decodeObject(messages[n-2])
	if role, _ := last.str("role"); role != "user" {
		return nil
	}
	if role, _ := prev.str("role"); role != "assistant" {
		return nil
	}
	lastBlocks, _ := contentBlocks(last, n-1, false)
	hasResult := false
	for _, b := range lastBlocks {
		if typ, _ := b.str("type"); typ == "tool_result" {
			hasResult = true
		}
	}
	prevBlocks, _ := contentBlocks(prev, n-2, true)
	if !hasResult || len(prevBlocks) == 0 {
		return nil
	}
	first, _ := prevBlocks[0].str("type")
	if first == "thinking" || first == "redacted_thinking" {
		return nil
	}
	return badRequest("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`.", n-2, first)
}
