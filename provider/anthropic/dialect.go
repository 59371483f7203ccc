package anthropic

import (
	"net/http"

	"github.com/agent-lsp/agent-lsp/provider"
)

const (
	// Name is the dialect's configuration name.
	Name = "anthropic"
	// DefaultBaseURL is DeepSeek's Anthropic-compatible endpoint.
	DefaultBaseURL = "https://api.deepseek.com/anthropic"
	// DefaultModel is the model asked for when the configuration names none.
	DefaultModel = "deepseek-flash"
	// APIVersion is the anthropic-version header every request carries.
	APIVersion = "2023-06-01"
	// DefaultMaxTokens is sent when the request leaves MaxTokens at 0: the
	// Messages API refuses a request without max_tokens.
	DefaultMaxTokens = 8192
)

// NewDialect returns the Messages dialect. It holds no state: every stream
// gets its own Decoder.
func NewDialect() provider.Dialect { return dialect{} }

type dialect struct{}

func (dialect) Name() string { return Name }

func (dialect) Path() string { return "/v1/messages" }

// SetHeaders sets the Messages credential and version headers. The key goes in
// x-api-key, not in an Authorization: Bearer header.
func (dialect) SetHeaders(h http.Header, apiKey string) {
	if apiKey != "" {
		h.Set("x-api-key", apiKey)
	}
	h.Set("anthropic-version", APIVersion)
	h.Set("content-type", "application/json")
}

func (dialect) Encode(req provider.Request) ([]byte, error) { return encodeRequest(req) }

func (dialect) NewDecoder() provider.Decoder { return &decoder{} }
