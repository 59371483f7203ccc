package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// A tool loop continued in this dialect after a turn made elsewhere (no
// signature) goes out with thinking disabled, never with an invalid
// thinking history; a signed loop and a new user prompt keep thinking on.
func TestThinkingOffForAnUnsignedToolLoop(t *testing.T) {
	call := []provider.ToolCall{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a"}`}}
	result := provider.Message{Role: provider.RoleTool, ToolCallID: "call_1", Text: "a"}
	cases := []struct {
		name string
		msgs []provider.Message
		want string
	}{
		{"chat-completions turn mid-loop", []provider.Message{
			{Role: provider.RoleUser, Text: "go"},
			{Role: provider.RoleAssistant, Reasoning: "unsigned", ToolCalls: call}, result}, "disabled"},
		{"turn made with thinking off mid-loop", []provider.Message{
			{Role: provider.RoleUser, Text: "go"},
			{Role: provider.RoleAssistant, Text: "look", ToolCalls: call}, result}, "disabled"},
		{"signed turn mid-loop", []provider.Message{
			{Role: provider.RoleUser, Text: "go"},
			{Role: provider.RoleAssistant, Reasoning: "r", ReasoningSignature: "sig", ToolCalls: call}, result}, "enabled"},
		{"unsigned loop closed, new prompt", []provider.Message{
			{Role: provider.RoleUser, Text: "go"},
			{Role: provider.RoleAssistant, Reasoning: "unsigned", ToolCalls: call}, result,
			{Role: provider.RoleAssistant, Text: "done"},
			{Role: provider.RoleUser, Text: "next"}}, "enabled"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, err := encodeRequest(provider.Request{Model: "m", Messages: c.msgs, MaxTokens: 16000,
				Thinking: provider.Thinking{Enabled: true, Effort: "low"}}, deepSeek)
			if err != nil {
				t.Fatal(err)
			}
			var w struct {
				Thinking struct {
					Type string `json:"type"`
				} `json:"thinking"`
			}
			if err := json.Unmarshal(body, &w); err != nil {
				t.Fatal(err)
			}
			if w.Thinking.Type != c.want {
				t.Errorf("thinking = %s, want %s; body %s", w.Thinking.Type, c.want, body)
			}
		})
	}
}
