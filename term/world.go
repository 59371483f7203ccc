package term

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/tools"
)

// world is the session's world the chat runs in: the controller, the
// binding of the session the chat opens (its Notify is the chat's own),
// the sandbox's status line for the banner, and what closes it all.
type world struct {
	Controller *control.Controller
	Binding    control.Binding
	Sandbox    string
	Close      func() error
}

// openWorld wires the chat's world: the configured model, the workspace
// on disk, the built-in and MCP tools, approvals on the terminal,
// commands through the sandbox, and the session store.
func (t *terminal) openWorld(ctx context.Context) (world, error) {
	o, progress, stderr, log := t.o, t.Progress(), t.o.Stderr, t.o.Logger
	model, closeModel, err := connect.New(o.Model, connect.Options{
		Getenv: o.Getenv, RecordPath: o.RecordPath, ReplayPath: o.ReplayPath,
		RawDump: o.RawDump, Redact: tools.RedactSecrets, Logger: log,
	})
	if err != nil {
		return world{}, err
	}
	if o.ReplayPath != "" && o.ReplayDeniedPath != "" {
		if model, err = newBranchingReplay(model, o.ReplayDeniedPath); err != nil {
			_ = closeModel()
			return world{}, err
		}
	}
	ws, err := tools.NewWorkspace(o.Dir)
	if err != nil {
		_ = closeModel()
		return world{}, err
	}
	protected, err := permission.NewProtectedFiles(o.Sandbox.ProtectedFiles) // checked by the flag
	if err != nil {
		_ = closeModel()
		return world{}, err
	}
	ws.SetProtectedFiles(protected)
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		_ = closeModel()
		return world{}, err
	}
	closeAll := closeModel
	var prompts control.PromptSource // nil, not a nil *mcp.Manager: no MCP prompts
	if m := t.mountMCP(ctx, ws, reg); m != nil {
		prompts = m
		closeAll = func() error { return errors.Join(m.Close(), closeModel()) }
	}
	store, err := openStore(o)
	if err != nil && (o.Resume != "" || o.Continue) {
		_ = closeAll()
		return world{}, err
	}
	if err != nil { // not being able to save is no reason not to answer
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; this session is not saved\n", err)
	}
	box, err := openSandbox(o, ws, store, progress)
	if err != nil {
		_ = closeAll()
		return world{}, err
	}
	closeModelAndMCP := closeAll
	closeAll = func() error { return errors.Join(closeModelAndMCP(), box.Close()) }
	var approver permission.Approver = t.approver
	if o.Yes {
		approver = permission.AutoApprover{}
	}
	ctl := control.New(control.Options{
		Store:    store,
		Logger:   log,
		Model:    o.Model,
		Provider: model,
		Connect:  switchConnector(o, model),
		Windows:  o.Windows,
		// The run's flags and environment win over a resumed session's
		// stored model (the README's promise): a line says which won.
		UserModel: o.UserModel,
		Mode:      o.Mode,
		Budget:    o.Budget,
		Keep:      o.Keep,
		OnStoreError: func(_ string, err error) {
			fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; the session goes on unsaved\n", err)
		},
	})
	b := control.Binding{
		Workspace:          ws,
		Docs:               &tools.DiskDocuments{Workspace: ws},
		Runner:             tools.NewProcessRunner(box),
		Approver:           approver,
		AutoAllowSandboxed: o.SandboxAutoAllow && box.Status().Active,
		Tools:              reg,
		Prompts:            prompts,
	}
	return world{Controller: ctl, Binding: b, Sandbox: box.Status().Summary(),
		Close: func() error { return errors.Join(ctl.Close(), closeAll()) }}, nil
}

// switchConnector builds the client of a model the session is switched to
// (or restored to): by name and key variable, without recording. A
// replayed run answers from its file whatever the model, so there every
// model is the replay.
func switchConnector(o Options, replay provider.Provider) func(provider.Config) (provider.Provider, func() error, error) {
	if o.ReplayPath != "" {
		return func(provider.Config) (provider.Provider, func() error, error) {
			return replay, func() error { return nil }, nil
		}
	}
	opts := connect.Options{Getenv: o.Getenv, RawDump: o.RawDump, Redact: tools.RedactSecrets, Logger: o.Logger}
	return func(cfg provider.Config) (provider.Provider, func() error, error) {
		return connect.New(cfg, opts)
	}
}

// openStore opens the session store unless the session stays in memory.
func openStore(o Options) (*agent.Store, error) {
	if o.NoSave && o.Resume == "" && !o.Continue {
		return nil, nil
	}
	dir := o.StateDir
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			return nil, fmt.Errorf("session store: %w (use --state-dir or --no-save)", err)
		}
		dir = d
	}
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	return agent.NewStore(dir, log)
}
