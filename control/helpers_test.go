package control_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// fixture is a controller over a fake model and a store, with one
// binding whose updates are recorded.
type fixture struct {
	t       *testing.T
	model   *providertest.Server
	dir     string // the store's directory
	ws      *tools.Workspace
	ctl     *control.Controller
	updates *recorder
	connect *connects
}

// connects counts and can refuse Connect calls.
type connects struct {
	mu     sync.Mutex
	cfgs   []provider.Config
	refuse error
	closed int
}

func newClient(srv *providertest.Server, c provider.Config) (provider.Provider, error) {
	return provider.NewHTTP(provider.HTTPOptions{BaseURL: c.BaseURL, APIKey: "test-key", Client: srv.Client(),
		MaxAttempts: 1, Dialect: openai.NewDialect()})
}

func (c *connects) fn(srv *providertest.Server) func(provider.Config) (provider.Provider, func() error, error) {
	return func(cfg provider.Config) (provider.Provider, func() error, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.refuse != nil {
			return nil, nil, c.refuse
		}
		c.cfgs = append(c.cfgs, cfg)
		p, err := newClient(srv, cfg)
		return p, func() error { c.mu.Lock(); c.closed++; c.mu.Unlock(); return nil }, err
	}
}

type fixtureOptions struct {
	dir      string // reuse this store (a restart)
	model    *providertest.Server
	modelErr error
	presets  []control.Preset
	refuse   error // Connect fails with it
	files    map[string]string
	mode     agent.Mode
	storeErr func(id string, err error) // Options.OnStoreError
}

func modelConfig(srv *providertest.Server) provider.Config {
	cfg := provider.DefaultConfig(openai.Name)
	cfg.BaseURL, cfg.APIKeyEnv, cfg.Thinking, cfg.Model = srv.OpenAIBaseURL(), "none", false, "deepseek-flash"
	return cfg
}

func newFixture(t *testing.T, script providertest.Script, o fixtureOptions) *fixture {
	t.Helper()
	f := &fixture{t: t, model: o.model, dir: o.dir, updates: &recorder{}, connect: &connects{refuse: o.refuse}}
	if f.model == nil {
		f.model = providertest.NewServer(t, script, providertest.WithSeed(7))
	}
	if f.dir == "" {
		f.dir = t.TempDir()
	}
	root := t.TempDir()
	for name, text := range o.files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	f.ws = ws
	store, err := agent.NewStore(f.dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := modelConfig(f.model)
	var client provider.Provider
	if o.modelErr == nil {
		if client, err = newClient(f.model, cfg); err != nil {
			t.Fatal(err)
		}
	}
	f.ctl = control.New(control.Options{Store: store, Model: cfg, ModelErr: o.modelErr, Provider: client,
		Connect: f.connect.fn(f.model), Presets: o.presets, Mode: o.mode, OnStoreError: o.storeErr})
	t.Cleanup(func() { _ = f.ctl.Close() })
	return f
}

// binding is a session's binding: the fixture's workspace, automatic
// approvals, the built-in tools, prompts when given.
func (f *fixture) binding(prompts control.PromptSource) control.Binding {
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		f.t.Fatal(err)
	}
	return control.Binding{Workspace: f.ws, Approver: permission.AutoApprover{}, Tools: reg,
		Prompts: prompts, Notify: f.updates.add}
}

func (f *fixture) newSession(title string) *control.Session {
	f.t.Helper()
	s, err := f.ctl.NewSession(f.binding(nil), title)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// recorder keeps every control update.
type recorder struct {
	mu  sync.Mutex
	all []control.Update
}

func (r *recorder) add(u control.Update) {
	r.mu.Lock()
	r.all = append(r.all, u)
	r.mu.Unlock()
}

// of returns the updates of kind, in order.
func (r *recorder) of(kind control.UpdateKind) []control.Update {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []control.Update
	for _, u := range r.all {
		if u.Kind == kind {
			out = append(out, u)
		}
	}
	return out
}

// events records a prompt's events.
type events struct {
	mu  sync.Mutex
	all []agent.Event
}

func (e *events) OnEvent(ev agent.Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

var discard = agent.ListenerFunc(func(agent.Event) {})

// lastUserText is the text of the last user message of a recorded request.
func lastUserText(t *testing.T, r providertest.Received) string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	for i := len(body.Messages) - 1; i >= 0; i-- {
		if m := body.Messages[i]; m.Role == "user" {
			if s, ok := m.Content.(string); ok {
				return s
			}
		}
	}
	return ""
}

func mustKind(t *testing.T, err, kind error) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want %v", err, kind)
	}
	if strings.HasPrefix(err.Error(), kind.Error()+":") {
		t.Errorf("error %q carries its kind's name: front ends add their own", err)
	}
}
