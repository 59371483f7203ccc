package anthropic

import (
	"io"
	"net/http"
	"sync/atomic"

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

// NewDialect returns the Messages dialect, sending the thinking block of
// Anthropic and DeepSeek unless an option names another server. It holds
// no state: every stream gets its own Decoder.
func NewDialect(opts ...Option) provider.Dialect {
	d := dialect{flavour: deepSeek, learnt: &atomic.Pointer[provider.Flavour]{}}
	for _, o := range opts {
		o(&d)
	}
	return d
}

// deepSeek is the flavour of the default endpoint.
var deepSeek, _ = provider.FlavourOf(provider.KindDeepSeek)

// Option adjusts the dialect to a server.
type Option func(*dialect)

// WithFlavour sends the thinking switches f's server reads (the thinking
// block, llama.cpp's chat_template_kwargs) and none it would refuse.
func WithFlavour(f provider.Flavour) Option { return func(d *dialect) { d.flavour = f } }

type dialect struct {
	flavour provider.Flavour
	// learnt is the flavour of the server kind a response named
	// (provider.KindFromHeader), when the configuration and the URL did
	// not: llama.cpp on a port that is not its default. Shared by the
	// dialect's copies; nil until a response named one.
	learnt *atomic.Pointer[provider.Flavour]
}

// current is the flavour requests are encoded for.
func (d dialect) current() provider.Flavour {
	if f := d.learnt.Load(); f != nil {
		return *f
	}
	return d.flavour
}

// ServerAnswered learns the server's kind from its response (see
// provider.ServerAware), only when nothing said it before: a kind the
// configuration named or the URL showed is kept.
func (d dialect) ServerAnswered(h http.Header) {
	if d.flavour.Kind != provider.KindGeneric || d.learnt.Load() != nil {
		return
	}
	if f, ok := provider.FlavourOf(provider.KindFromHeader(h)); ok {
		d.learnt.Store(&f)
	}
}

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

func (d dialect) Encode(req provider.Request) ([]byte, error) { return encodeRequest(req, d.current()) }

// WriteBody implements provider.BodyWriter.
func (d dialect) WriteBody(w io.Writer, req provider.Request) error {
	return writeRequest(w, req, d.current())
}

func (dialect) NewDecoder() provider.Decoder { return &decoder{} }
