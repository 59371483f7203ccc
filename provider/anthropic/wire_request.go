package anthropic

import "encoding/json"

// The request body as structs: the field order here is the byte order on the
// wire, so the same Request always encodes to the same bytes (a stable prefix
// is what the server's prompt cache matches on).

type wireRequest struct {
	Model     string        `json:"model"`
	MaxTokens int           `json:"max_tokens"`
	Stream    bool          `json:"stream"`
	System    []wireBlock   `json:"system,omitempty"`
	Messages  []wireMessage `json:"messages"`
	Tools     []wireTool    `json:"tools,omitempty"`
	// Thinking is Anthropic's (and DeepSeek's) switch; ChatTemplateKwargs
	// the one llama.cpp's Messages endpoint hands to Qwen3-style templates.
	// Each is sent only to the server kinds that read it (provider.Flavour).
	Thinking           *wireThinking       `json:"thinking,omitempty"`
	ChatTemplateKwargs *wireTemplateKwargs `json:"chat_template_kwargs,omitempty"`
}

type wireTemplateKwargs struct {
	EnableThinking bool `json:"enable_thinking"`
}

type wireThinking struct {
	Type         string `json:"type"` // "enabled" or "disabled"
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

type wireMessage struct {
	Role    string      `json:"role"` // "user" or "assistant"
	Content []wireBlock `json:"content"`
}

// wireBlock is every content block kind in one struct; each kind fills only
// its own fields and omitempty leaves the rest out. Empty texts never reach a
// block (the API rejects empty text blocks), so omitempty on Text is safe.
type wireBlock struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// thinking
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result; an empty result is sent without content, which the API
	// documents as optional.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
	// image
	Source *wireImageSource `json:"source,omitempty"`

	CacheControl *wireCacheControl `json:"cache_control,omitempty"`
}

// wireImageSource is an image block's data, inline.
type wireImageSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type wireTool struct {
	Name         string            `json:"name"`
	Description  string            `json:"description,omitempty"`
	InputSchema  json.RawMessage   `json:"input_schema"`
	CacheControl *wireCacheControl `json:"cache_control,omitempty"`
}

type wireCacheControl struct {
	Type string `json:"type"`
}

// ephemeral marks a prompt-cache breakpoint: everything up to and including
// the marked block is a cacheable prefix.
var ephemeral = &wireCacheControl{Type: "ephemeral"}

const (
	blockText       = "text"
	blockThinking   = "thinking"
	blockToolUse    = "tool_use"
	blockToolResult = "tool_result"
	blockImage      = "image"
	roleUser        = "user"
	roleAssistant   = "assistant"
)
