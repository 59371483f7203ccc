// Package openai is the OpenAI Chat Completions dialect, as spoken by
// DeepSeek's endpoint (the default) and by OpenAI and its many compatibles.
//
// It only translates: Encode builds the streaming request body, the Decoder
// turns the SSE chunks of the answer into provider Events. HTTP, retries and
// SSE framing live in package provider.
package openai

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

const (
	// Name is the dialect's configuration name.
	Name = "openai"
	// DefaultBaseURL is DeepSeek's Chat Completions endpoint root.
	DefaultBaseURL = "https://api.deepseek.com"
	// DefaultModel is used when a Request names no model.
	DefaultModel = "deepseek-flash"
	// APIKeyEnv is the environment variable the key is read from by default.
	APIKeyEnv = "DEEPSEEK_API_KEY"

	endpointPath = "/chat/completions"
)

// NewDialect returns the Chat Completions dialect. It holds no state: one
// value serves any number of concurrent requests.
func NewDialect(opts ...Option) provider.Dialect {
	var d dialect
	for _, o := range opts {
		o(&d)
	}
	return d
}

// Option adjusts the dialect to a server.
type Option func(*dialect)

// WithoutThinkingFields leaves DeepSeek's thinking switch
// ("thinking", "reasoning_effort") out of every request: OpenAI's own API
// (and Azure's) answer 400 to a parameter they do not know, and their
// models reason, or not, by themselves.
func WithoutThinkingFields() Option { return func(d *dialect) { d.noThinking = true } }

// RejectsThinkingFields reports whether the server at baseURL is one that
// refuses DeepSeek's thinking parameters (see WithoutThinkingFields).
func RejectsThinkingFields(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	return host == "api.openai.com" || strings.HasSuffix(host, ".openai.azure.com")
}

type dialect struct {
	noThinking bool
}

func (dialect) Name() string { return Name }

func (dialect) Path() string { return endpointPath }

// SetHeaders sets the bearer credential (only when there is one, so a local
// server without auth gets no empty "Bearer ") and the content types.
func (dialect) SetHeaders(h http.Header, apiKey string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	if apiKey != "" {
		h.Set("Authorization", "Bearer "+apiKey)
	}
}

func (dialect) NewDecoder() provider.Decoder { return newDecoder() }
