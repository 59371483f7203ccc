// Package connect turns a provider.Config into a working provider.Provider:
// it picks the dialect by name, reads the API key from the environment, and
// wires recording and raw dumps. Every front end builds its model
// connections through agent/world, which calls New with the session's one
// Recorder (or answers from its one replay), so they behave alike.
package connect

import (
	"fmt"
	"io"
	"net/http"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
)

// Dialects returns every dialect this build speaks.
func Dialects() []provider.Dialect {
	return []provider.Dialect{openai.NewDialect(), anthropic.NewDialect()}
}

// Dialect returns the dialect with the given configuration name.
func Dialect(name string) (provider.Dialect, error) {
	for _, d := range Dialects() {
		if d.Name() == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown provider %q: want \"openai\" or \"anthropic\"", name)
}

// DialectFor returns the dialect of cfg, adjusted to its server kind
// (cfg.Flavour: the ServerKind setting, else detected from the base URL):
// each server gets the thinking fields it reads and none it refuses.
func DialectFor(cfg provider.Config) (provider.Dialect, error) {
	f := cfg.Flavour()
	switch cfg.Provider {
	case openai.Name:
		return openai.NewDialect(openai.WithFlavour(f)), nil
	case anthropic.Name:
		return anthropic.NewDialect(anthropic.WithFlavour(f)), nil
	}
	return Dialect(cfg.Provider)
}

// Options are the extras of a connection beyond its Config.
type Options struct {
	// Getenv reads the environment (the API key); nil: no variable is set.
	Getenv func(string) string
	// Recorder, when set, records every exchange. It is shared by every
	// connection of a session (a model switch keeps recording into it) and
	// its owner closes it, not New's close function.
	Recorder *provider.Recorder
	// RawDump receives every raw SSE line ("--dump-raw").
	RawDump io.Writer
	// Redact rewrites what the recording and the raw dump write (the front
	// end's secrets: every hidden variable, not only this key); nil: only
	// the key is scrubbed.
	Redact func(string) string
	Client *http.Client
	Logger *zap.Logger
}

// New builds the provider described by cfg. The returned close function
// releases what the connection holds; it is never nil.
func New(cfg provider.Config, o Options) (provider.Provider, func() error, error) {
	noop := func() error { return nil }
	if err := cfg.Validate(); err != nil {
		return nil, noop, err
	}
	dialect, err := DialectFor(cfg)
	if err != nil {
		return nil, noop, err
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	key, err := cfg.APIKey(getenv)
	if err != nil {
		return nil, noop, err
	}
	opts := provider.HTTPOptions{
		Dialect:     dialect,
		BaseURL:     cfg.BaseURL,
		APIKey:      key,
		Client:      o.Client,
		IdleTimeout: cfg.IdleTimeout,
		RawDump:     o.RawDump,
		Redact:      o.Redact,
		Logger:      o.Logger,
		Recorder:    o.Recorder,
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		return nil, noop, err
	}
	return p, noop, nil
}
