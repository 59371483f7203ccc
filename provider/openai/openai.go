// Package openai is the OpenAI Chat Completions dialect, as spoken by
// DeepSeek's endpoint (the default) and by OpenAI and its many compatibles.
//
// It only translates: Encode builds the streaming request body, the Decoder
// turns the SSE chunks of the answer into provider Events. HTTP, retries and
// SSE framing live in package provider.
package openai

import (
	"net/http"

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

// NewDialect returns the Chat Completions dialect, speaking DeepSeek's
// thinking switch unless an option names another server. It holds no
// state: one value serves any number of concurrent requests.
func NewDialect(opts ...Option) provider.Dialect {
	d := dialect{flavour: deepSeek}
	for _, o := range opts {
		o(&d)
	}
	return d
}

// deepSeek is the flavour of the default endpoint.
var deepSeek, _ = provider.FlavourOf(provider.KindDeepSeek)

// Option adjusts the dialect to a server.
type Option func(*dialect)

// WithFlavour sends the thinking switch and effort the way f's server reads
// them (see provider.Flavour), and none of the fields it would refuse.
func WithFlavour(f provider.Flavour) Option { return func(d *dialect) { d.flavour = f } }

// WithoutThinkingFields leaves every thinking field out of every request,
// for a server that refuses them all and reasons, or not, by itself.
func WithoutThinkingFields() Option {
	return WithFlavour(provider.Flavour{Kind: provider.KindOpenAI})
}

// RejectsThinkingFields reports whether the server at baseURL is one that
// refuses DeepSeek's thinking parameters (see WithoutThinkingFields).
func RejectsThinkingFields(baseURL string) bool {
	return provider.DetectKind(baseURL) == provider.KindOpenAI
}

type dialect struct {
	flavour provider.Flavour
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
