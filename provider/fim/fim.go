// Package fim owns fill-in-the-middle completion: one request shape (text
// before and after the cursor), the FIM dialects of the servers users already
// run (DeepSeek's /beta/completions, llama.cpp's /infill, Ollama's
// /api/generate, Mistral's /v1/fim/completions, any OpenAI-style /completions
// with suffix) in a flavour table, and a streaming Client. HTTP, retries, SSE
// framing, typed errors and key handling are package provider's: this package
// only shapes bodies and reads answers.
package fim

import (
	"context"
	"net/http"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// Request is one fill-in-the-middle completion.
type Request struct {
	Prefix, Suffix string // text before and after the cursor (already windowed by the caller)
	// Path and Language name the file being completed (Language is the LSP
	// languageId). A dialect without such a field gets them as a comment
	// line before the prefix ("// Path: main.go"), when the language's
	// comment syntax is known; leave Path empty for no header.
	Path, Language string
	// Extra is context from other files (open buffers): llama.cpp's
	// input_extra; for the other dialects each is put before the prefix
	// under its own path comment.
	Extra []File
	// MaxTokens bounds the answer (0: the dialect's default); it is
	// clamped to the dialect's limit (DeepSeek: 4096).
	MaxTokens int
	// Stop sequences; a dialect with a bound on their number gets the first ones.
	Stop []string
	// Temperature < 0 leaves the server's default; 0 is sent as 0 (greedy,
	// what completion mostly wants).
	Temperature float64
}

// File is another file's text given as context.
type File struct {
	Path, Text string
}

// Stop reasons of a Result.
const (
	StopDone      = "stop"      // the model ended (end of text or a stop sequence)
	StopLength    = "length"    // MaxTokens reached
	StopCancelled = "cancelled" // onText returned false, or ctx ended
)

// Result is what one completion produced.
type Result struct {
	Text       string // every delta, concatenated
	StopReason string // StopDone, StopLength or StopCancelled
	// PromptTokens and CompletionTokens are the server's counts (0 when it
	// sent none, or when the stream was cut short).
	PromptTokens, CompletionTokens int
}

// Client calls one FIM endpoint. Complete streams: onText gets each delta as
// it arrives and returns false to stop early (the HTTP stream is closed at
// once; the Result then says StopCancelled and the error is nil).
// Cancelling ctx closes the HTTP request at once; Complete then returns the
// text so far with StopCancelled and an error wrapping ctx.Err(). A nil
// onText collects the text only. Safe for concurrent use.
type Client interface {
	Complete(ctx context.Context, req Request, onText func(delta string) bool) (Result, error)
}

// Config configures New.
type Config struct {
	// Dialect is one of Dialects(); "" detects it: a base URL that is not
	// a public API's is probed by the first completion (Probe: llama.cpp on
	// any port speaks /infill, Ollama /api/generate), else, or when the
	// server says nothing, it is guessed from BaseURL (DetectDialect). A
	// configured dialect on such a URL is checked by the same probe.
	Dialect string
	// BaseURL is the server's root: the dialect's path is appended
	// ("https://api.deepseek.com" → …/beta/completions). A base that already
	// ends with the path's first part ("/v1", "/beta") is not doubled.
	// "": the dialect's usual one (DeepSeek's and Mistral's public APIs,
	// OpenAI's, llama.cpp on localhost:8080, Ollama on localhost:11434).
	BaseURL string
	// Model is required by every dialect but llamacpp (which serves the
	// model it loaded and gets "model" only when this is set).
	Model string
	// APIKeyEnv names the environment variable holding the key; "" or
	// "none": no key. A loopback server needs none (provider.Config.APIKey).
	APIKeyEnv string
	// Getenv reads the key's variable (default os.Getenv); tests inject it.
	Getenv     func(string) string
	HTTPClient *http.Client // default http.DefaultClient
	// IdleTimeout fails a stream silent for this long, waiting for the
	// headers included (default 15s: ghost text that late is useless).
	IdleTimeout time.Duration
	// MaxAttempts bounds the requests per Complete, retries included
	// (default 2). Retries happen only before the first delta.
	MaxAttempts int
	// BackoffBase and BackoffMax shape the retry delay when the server names
	// none (defaults 200ms and 1s).
	BackoffBase, BackoffMax time.Duration
	// Recorder, when set, records every exchange (the key scrubbed).
	Recorder *provider.Recorder
	Logger   *zap.Logger
	// OnDetect, when set, is told once what the probe found (see
	// Dialect): the front end warns the user when Detection.Contradicts.
	// It is called from a Complete call.
	OnDetect func(Detection)
}

// New checks cfg, reads the key and returns the dialect's Client.
func New(cfg Config) (Client, error) {
	if strings.TrimSpace(cfg.BaseURL) != "" && probeWorthy(cfg.BaseURL) {
		return newDetecting(cfg)
	}
	return newClient(cfg)
}
