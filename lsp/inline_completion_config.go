package lsp

import (
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/completion"
	"github.com/agent-lsp/agent-lsp/provider/fim"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

// completionOptions are initializationOptions.completion
// (docs/completion.md). Inline completion has a model of its own: absent,
// the daemon announces no inlineCompletionProvider and never sends
// keystrokes to the chat's (expensive) model.
type completionOptions struct {
	Dialect      string   `json:"dialect"`
	Provider     string   `json:"provider"` // the same as dialect, as the chat's options name it
	BaseURL      string   `json:"baseURL"`
	Model        string   `json:"model"`
	APIKeyEnv    string   `json:"apiKeyEnv"`
	Languages    []string `json:"languages"` // language ids; empty: every language
	DebounceMs   *int     `json:"debounceMs"`
	MaxTokens    *int     `json:"maxTokens"`
	PrefixTokens *int     `json:"prefixTokens"`
	SuffixTokens *int     `json:"suffixTokens"`
	MaxLines     *int     `json:"maxLines"`
}

// completionSetting is initializationOptions.completion, decoded with
// the other options (initOptions). A setting of the wrong shape is kept
// as its error instead of failing initialize: the user is told at
// initialized, and the daemon serves on without inline completion.
type completionSetting struct {
	options completionOptions
	err     error
}

func (c *completionSetting) UnmarshalJSON(b []byte) error {
	if err := editorjson.Unmarshal(b, &c.options); err != nil {
		c.err = fmt.Errorf("completion options: %w", err)
	}
	return nil
}

// completer is the configured inline completion: nil when not configured.
type completer struct {
	engine    *completion.Engine
	languages map[string]bool // nil: every language
}

// capability is the inlineCompletionProvider to announce: none without
// a completion model.
func (c *completer) capability() any {
	if c == nil {
		return nil
	}
	return struct{}{}
}

func (c *completer) enabled(language string) bool {
	return c.languages == nil || c.languages[language]
}

// newCompleter builds the inline completion from the options. (nil, nil)
// means not configured; an error means configured wrongly, which the
// user is told at initialized, and the daemon serves on without it.
func (s *server) newCompleter(setting *completionSetting) (*completer, error) {
	if setting == nil {
		return nil, nil
	}
	if setting.err != nil {
		return nil, setting.err
	}
	o := setting.options
	dialect := strings.ToLower(strings.TrimSpace(o.Dialect))
	if dialect == "" {
		dialect = strings.ToLower(strings.TrimSpace(o.Provider))
	}
	if dialect == "" && o.BaseURL == "" && o.Model == "" {
		return nil, nil // an empty object: still off
	}
	opts := completion.DefaultOptions()
	for _, f := range []struct {
		v   *int
		dst *int
	}{{o.MaxTokens, &opts.MaxTokens}, {o.PrefixTokens, &opts.PrefixTokens}, {o.SuffixTokens, &opts.SuffixTokens}, {o.MaxLines, &opts.MaxLines}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if o.DebounceMs != nil {
		if *o.DebounceMs < 0 {
			return nil, fmt.Errorf("completion options: debounceMs must not be negative")
		}
		opts.Debounce = time.Duration(*o.DebounceMs) * time.Millisecond
	}
	model, err := fim.New(fim.Config{Dialect: dialect, BaseURL: o.BaseURL, Model: o.Model,
		APIKeyEnv: o.APIKeyEnv, Getenv: s.getenv, Logger: s.log, OnDetect: s.completionDetected})
	if err != nil {
		return nil, fmt.Errorf("completion model: %w", err)
	}
	// The key was read: children never see it (as the chat's key).
	_ = tools.HideEnv(o.APIKeyEnv)
	opts.Model = model
	opts.OnStatus = s.completionStatus
	eng, err := completion.New(opts)
	if err != nil {
		return nil, err
	}
	c := &completer{engine: eng}
	if len(o.Languages) > 0 {
		c.languages = map[string]bool{}
		for _, l := range o.Languages {
			c.languages[strings.TrimSpace(l)] = true
		}
	}
	s.log.Info("inline completion", zap.String("dialect", dialect), zap.String("baseURL", o.BaseURL),
		zap.String("model", o.Model), zap.Strings("languages", o.Languages))
	return c, nil
}

// completionStatusParams is agent/completionStatus: what inline
// completion does for a document, for the editor's "completing…".
type completionStatusParams struct {
	URI     string `json:"uri"`
	State   string `json:"state"` // idle, completing, error
	Message string `json:"message,omitempty"`
}

// completionDetected tells the user, not only the log, when the completion
// server is not what the configured dialect says (llama.cpp configured as
// "openai" silently drops the code after the cursor).
func (s *server) completionDetected(d fim.Detection) {
	if w := d.Warning(); w != "" {
		s.log.Warn("inline completion: the server contradicts the configured dialect", zap.String("warning", w))
		s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: w})
	}
}

func (s *server) completionStatus(st completion.Status) {
	s.notify("agent/completionStatus", completionStatusParams{URI: st.Doc, State: string(st.State), Message: st.Message})
}

// initializeResult is protocol.InitializeResult with capabilities the
// pinned protocol package (LSP 3.16) has no field for.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type serverCapabilities struct {
	protocol.ServerCapabilities
	// InlineCompletionProvider is LSP 3.18's; omitted without a
	// completion model, so editors never ask.
	InlineCompletionProvider any `json:"inlineCompletionProvider,omitempty"`
}
