package acp

import (
	"fmt"
	"strings"
)

// maxClientSystemPrompt bounds a client's instructions: they go with
// every request of the session.
const maxClientSystemPrompt = 32 << 10

// clientSystemPrompt reads session/new's _meta.systemPrompt, as the
// peers' agents take it (claude-agent-acp): a string, or {append: string},
// appended to our system prompt. {replace}-style values are refused: our
// system prompt holds the rules the tools rely on.
func clientSystemPrompt(meta map[string]any) (string, error) {
	v, ok := meta["systemPrompt"]
	if !ok || v == nil {
		return "", nil
	}
	var text string
	switch p := v.(type) {
	case string:
		text = p
	case map[string]any:
		a, ok := p["append"].(string)
		if !ok || len(p) != 1 {
			return "", fmt.Errorf("_meta.systemPrompt: only a string or {\"append\": string} is taken (our own system prompt is not replaced)")
		}
		text = a
	default:
		return "", fmt.Errorf("_meta.systemPrompt: a string or {\"append\": string}, not %T", v)
	}
	if len(text) > maxClientSystemPrompt {
		return "", fmt.Errorf("_meta.systemPrompt: %d bytes; at most %d", len(text), maxClientSystemPrompt)
	}
	return strings.TrimSpace(text), nil
}
