package provider

import "encoding/json"

// Role is who speaks a message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one completed call the model asked for.
type ToolCall struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the JSON argument text exactly as the model produced it.
	// It is kept as a string (not parsed) so the Chat Completions dialect can
	// send it back byte for byte; the Messages dialect parses it into an object.
	Arguments string `json:"arguments"`
}

// Message is one entry of the conversation history, in no dialect's shape.
type Message struct {
	Role Role   `json:"role"`
	Text string `json:"text,omitempty"`
	// Reasoning is the model's thinking text for an assistant turn. Both
	// dialects require it to be sent back in turns that carry tool calls.
	Reasoning string `json:"reasoning,omitempty"`
	// ReasoningSignature is the Messages dialect's signature of the thinking
	// block; it must be sent back unchanged with Reasoning.
	ReasoningSignature string     `json:"reasoning_signature,omitempty"`
	ToolCalls          []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID links a tool message to the call it answers.
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a tool message whose call failed or was denied.
	IsError bool `json:"is_error,omitempty"`
	// Denied marks a tool message whose call was refused (by the user or
	// the policy) rather than failed: the model reads both as errors, a
	// front end redrawing the conversation shows which it was.
	Denied bool `json:"denied,omitempty"`
	// Summary marks a system message that stands for earlier conversation
	// (a compaction summary) rather than instructions. It is never part of
	// the system prompt, even right after it: the Messages dialect, whose
	// system prompt is a top-level field, sends it as user text.
	Summary bool `json:"summary,omitempty"`
	// Images are pictures a user message carries with its text.
	Images []Image `json:"images,omitempty"`
}

// ToolSpec describes one tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"` // JSON Schema of the arguments object
}

// Thinking asks for the model's reasoning.
type Thinking struct {
	Enabled bool
	// Effort is "low", "medium", "high" or "max"; empty means the server's default.
	Effort string
}

// Request is one model call.
type Request struct {
	Model     string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int // 0: the dialect's default (the Messages dialect always sends one)
	Thinking  Thinking
}

// Usage counts tokens of one model call. PromptTokens always means the total
// input, cached or not, whatever the dialect calls its fields.
type Usage struct {
	PromptTokens     int `json:"promptTokens"`
	CompletionTokens int `json:"completionTokens"`
	CachedTokens     int `json:"cachedTokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + o.PromptTokens,
		CompletionTokens: u.CompletionTokens + o.CompletionTokens,
		CachedTokens:     u.CachedTokens + o.CachedTokens,
	}
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopOther     StopReason = "other"
)
