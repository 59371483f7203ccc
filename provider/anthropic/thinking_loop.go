package anthropic

// unsignedToolLoop reports whether the request continues a tool loop (its
// last message is a user message with tool results) whose assistant
// message does not start with a signed thinking block. With thinking on,
// the API refuses that ("a final assistant message must start with a
// thinking block ... To avoid this requirement, disable thinking"). It
// happens when the turn came from elsewhere: the other dialect (whose
// reasoning has no signature and is dropped) or a call made with thinking
// off. Such a request is sent with thinking disabled; the next user prompt
// closes the loop and thinking is back.
func unsignedToolLoop(msgs []wireMessage) bool {
	n := len(msgs)
	if n < 2 || msgs[n-1].Role != roleUser || msgs[n-2].Role != roleAssistant {
		return false
	}
	hasResult := false
	for _, b := range msgs[n-1].Content {
		if b.Type == blockToolResult {
			hasResult = true
			break
		}
	}
	if !hasResult {
		return false
	}
	content := msgs[n-2].Content
	return len(content) == 0 || content[0].Type != blockThinking
}
