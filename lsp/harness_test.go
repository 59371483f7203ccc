package lsp_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// fullCaps is an editor with every capability the daemon uses.
var fullCaps = lsptest.Capabilities{ApplyEdit: true, DocumentChanges: true,
	ResourceOperations: []string{"create", "rename", "delete"}, WorkDoneProgress: true}

// setup is one test's daemon, editor and fake model.
type setup struct {
	t       testing.TB
	ed      *lsptest.Editor
	model   *providertest.Server
	root    string
	toSrv   *io.PipeWriter // the daemon's stdin; closing it is EOF
	fromSrv *io.PipeReader
	served  chan served
	caps    lsptest.Capabilities
	stopped bool
}

type served struct {
	code int
	err  error
}

type setupOptions struct {
	dialect     string // "openai" (default) or "anthropic"
	caps        lsptest.Capabilities
	handlers    lsptest.Handlers
	autoApprove bool
	files       map[string]string    // written under the workspace root
	stateDir    string               // the session store ("": a fresh temporary directory)
	thinking    bool                 // ask for the model's reasoning
	model       *providertest.Server // reuse this fake model (a daemon restarted against the same one)
	windows     bool                 // ask the model server for unknown models' context windows
	quiet       bool                 // no daemon logs (benchmarks: logging is not the daemon's overhead)
	// rulesFile is the user's permission rules file ("": one in a
	// fresh temporary directory).
	rulesFile string
	rootDir   string // the workspace ("": a fresh temporary directory)
	// idleNotification is lsp.Options.IdleNotification (0: its default).
	idleNotification time.Duration
}

// pipeRW joins the editor's two pipe ends into one connection.
type pipeRW struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeRW) Close() error {
	for _, c := range p.closers {
		_ = c.Close()
	}
	return nil
}

func newProviderFunc(srv *providertest.Server) func(provider.Config) (provider.Provider, error) {
	return func(c provider.Config) (provider.Provider, error) {
		o := provider.HTTPOptions{BaseURL: c.BaseURL, APIKey: "test-key", Client: srv.Client(), MaxAttempts: 1}
		switch c.Provider {
		case openai.Name:
			o.Dialect = openai.NewDialect()
		case anthropic.Name:
			o.Dialect = anthropic.NewDialect()
		}
		return provider.NewHTTP(o)
	}
}

// start runs Serve against a fresh workspace and an uninitialized editor.
func start(t testing.TB, script providertest.Script, o setupOptions) *setup {
	t.Helper()
	if o.dialect == "" {
		o.dialect = openai.Name
	}
	root := o.rootDir
	if root == "" {
		root = t.TempDir()
	}
	if o.stateDir == "" {
		o.stateDir = t.TempDir()
	}
	for name, text := range o.files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	model := o.model
	if model == nil {
		model = providertest.NewServer(t, script, providertest.WithSeed(7))
	}
	cfg := provider.DefaultConfig(o.dialect)
	cfg.APIKeyEnv = "none"
	cfg.Thinking = o.thinking
	cfg.BaseURL = model.OpenAIBaseURL()
	if o.dialect == anthropic.Name {
		cfg.BaseURL = model.AnthropicBaseURL()
	}

	srvIn, toSrv := io.Pipe()
	fromSrv, srvOut := io.Pipe()
	s := &setup{t: t, model: model, root: root, toSrv: toSrv, fromSrv: fromSrv, served: make(chan served, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	var windows *provider.WindowCache
	if o.windows {
		windows = &provider.WindowCache{Client: model.Client()}
	}
	logger := zaptest.NewLogger(t)
	if o.quiet {
		logger = zap.NewNop()
	}
	go func() {
		code, err := lsp.Serve(ctx, srvIn, srvOut, lsp.Options{
			Windows:     windows,
			Provider:    cfg,
			NewProvider: newProviderFunc(model),
			Logger:      logger,
			AutoApprove: o.autoApprove,
			StateDir:    o.stateDir,
			// Never the real user's rules file: a test's "Always allow"
			// stays in the test.
			PermissionsFile: o.permissionsFile(t),

			IdleNotification: o.idleNotification,
		})
		srvOut.Close()
		s.served <- served{code, err}
	}()
	s.ed = lsptest.Connect(ctx, pipeRW{Reader: fromSrv, Writer: toSrv, closers: []io.Closer{toSrv, fromSrv}}, o.handlers)
	t.Cleanup(func() {
		cancel()
		s.stop()
	})
	s.caps = o.caps
	return s
}

// stop closes the editor's connection (the end of the daemon's input) and
// waits for Serve to return.
func (s *setup) stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	s.ed.Close()
	// A deadline, not await.Event: stop runs in cleanups, where the
	// failure is reported and the other cleanups still run.
	ctx, cancel := context.WithTimeout(context.Background(), await.Long)
	defer cancel()
	select {
	case <-s.served:
	case <-ctx.Done():
		s.t.Error("Serve did not return after its input ended")
	}
}

// initialize sends initialize/initialized with the setup's capabilities.
func (s *setup) initialize(options map[string]any) json.RawMessage {
	s.t.Helper()
	res, err := s.ed.Initialize(ctx(s.t), s.root, s.caps, options)
	if err != nil {
		s.t.Fatalf("initialize: %v", err)
	}
	return res
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return c
}

// update is an agent/update notification.
type update struct {
	SessionID  string          `json:"sessionId"`
	Seq        int64           `json:"seq"`
	Kind       string          `json:"kind"`
	Text       string          `json:"text"`
	ToolCallID string          `json:"toolCallId"`
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	StopReason string          `json:"stopReason"`
	Usage      provider.Usage  `json:"usage"`
	Message    string          `json:"message"`
	Cost       float64         `json:"cost"`
	Totals     struct {
		PromptTokens     int     `json:"promptTokens"`
		CompletionTokens int     `json:"completionTokens"`
		CachedTokens     int     `json:"cachedTokens"`
		Cost             float64 `json:"cost"`
	} `json:"totals"`
	BeforeTokens int `json:"beforeTokens"`
	AfterTokens  int `json:"afterTokens"`
}

func (s *setup) updates(sessionID string) []update {
	s.t.Helper()
	var out []update
	for _, n := range s.ed.Notifications("agent/update") {
		var u update
		if err := json.Unmarshal(n.Params, &u); err != nil {
			s.t.Fatalf("agent/update %s: %v", n.Params, err)
		}
		if sessionID == "" || u.SessionID == sessionID {
			out = append(out, u)
		}
	}
	return out
}

type promptResult struct {
	SessionID  string         `json:"sessionId"`
	StopReason string         `json:"stopReason"`
	Text       string         `json:"text"`
	Usage      provider.Usage `json:"usage"`
	Error      string         `json:"error"`
}

func (s *setup) prompt(params map[string]any) promptResult {
	s.t.Helper()
	var r promptResult
	if err := s.ed.Call(ctx(s.t), "agent/prompt", params, &r); err != nil {
		s.t.Fatalf("agent/prompt: %v", err)
	}
	return r
}

// answer returns a popup handler choosing title and recording the messages.
func answer(title string, asked chan<- protocol.ShowMessageRequestParams) func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return func(_ context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		if asked != nil {
			asked <- p
		}
		if title == "" {
			return nil, nil
		}
		return &protocol.MessageActionItem{Title: title}, nil
	}
}

func joinText(us []update, kind string) string {
	var b strings.Builder
	for _, u := range us {
		if u.Kind == kind {
			b.WriteString(u.Text)
		}
	}
	return b.String()
}

func (o setupOptions) permissionsFile(t testing.TB) string {
	if o.rulesFile != "" {
		return o.rulesFile
	}
	return filepath.Join(t.TempDir(), "permissions.json")
}
