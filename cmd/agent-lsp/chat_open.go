package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/term"
	"github.com/agent-lsp/agent-lsp/tools"
)

// newChat wires the terminal's world: the configured model, the
// workspace on disk, the built-in and MCP tools, approvals on the
// terminal, commands through the sandbox, and the session store.
func newChat(ctx context.Context, f *chatFlags, fs *flag.FlagSet, t *term.Terminal, stderr io.Writer, log *zap.Logger) (term.World, error) {
	progress := t.Progress()
	cfg := f.config(fs, tools.Getenv)
	var rawDump io.Writer
	if f.dumpRaw {
		rawDump = os.Stderr
	}
	model, closeModel, err := connect.New(cfg, connect.Options{
		Getenv: secretGetenv, RecordPath: f.record, ReplayPath: f.replay,
		RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log,
	})
	if err != nil {
		return term.World{}, err
	}
	if f.replay != "" && f.replayDenied != "" {
		if model, err = newBranchingReplay(model, f.replayDenied); err != nil {
			_ = closeModel()
			return term.World{}, err
		}
	}
	ws, err := tools.NewWorkspace(f.dir)
	if err != nil {
		_ = closeModel()
		return term.World{}, err
	}
	protected, err := permission.NewProtectedFiles(f.sandbox.ProtectedFiles) // checked by the flag
	if err != nil {
		_ = closeModel()
		return term.World{}, err
	}
	ws.SetProtectedFiles(protected)
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		_ = closeModel()
		return term.World{}, err
	}
	closeAll := closeModel
	var prompts control.PromptSource // nil, not a nil *mcp.Manager: no MCP prompts
	if m := t.MountMCP(ctx, ws, reg, term.MCPOptions{Flags: f.mcp, TrustWorkspace: f.trustWorkspace, Yes: f.yes,
		StateDir: f.stateDir, Getenv: secretGetenv}, log); m != nil {
		prompts = m
		closeAll = func() error { return errors.Join(m.Close(), closeModel()) }
	}
	store, err := openStore(f, log)
	if err != nil && (f.resume != "" || f.cont) {
		_ = closeAll()
		return term.World{}, err
	}
	if err != nil { // not being able to save is no reason not to answer
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; this session is not saved\n", err)
	}
	box, err := openSandbox(f, ws, store, progress, log)
	if err != nil {
		_ = closeAll()
		return term.World{}, err
	}
	closeModelAndMCP := closeAll
	closeAll = func() error { return errors.Join(closeModelAndMCP(), box.Close()) }
	var approver permission.Approver = t.Approver()
	if f.yes {
		approver = permission.AutoApprover{}
	}
	ctl := control.New(control.Options{
		Store:    store,
		Logger:   log,
		Model:    cfg,
		Provider: model,
		Connect:  switchConnector(f, model, rawDump, log),
		Windows:  f.windows(),
		// The run's flags and environment win over a resumed session's
		// stored model (the README's promise): a line says which won.
		UserModel: f.userModel(fs, tools.Getenv),
		Mode:      f.mode,
		Budget:    f.budget,
		Keep:      f.keep,
		OnStoreError: func(_ string, err error) {
			fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; the session goes on unsaved\n", err)
		},
	})
	b := control.Binding{
		Workspace:          ws,
		Docs:               &tools.DiskDocuments{Workspace: ws},
		Runner:             tools.NewProcessRunner(box),
		Approver:           approver,
		AutoAllowSandboxed: f.sandboxAutoAllow && box.Status().Active,
		Tools:              reg,
		Prompts:            prompts,
	}
	return term.World{Controller: ctl, Binding: b, Sandbox: box.Status().Summary(),
		Close: func() error { return errors.Join(ctl.Close(), closeAll()) }}, nil
}

// switchConnector builds the client of a model the session is switched to
// (or restored to): by name and key variable, without recording. A
// replayed run answers from its file whatever the model, so there every
// model is the replay.
func switchConnector(f *chatFlags, replay provider.Provider, rawDump io.Writer, log *zap.Logger) func(provider.Config) (provider.Provider, func() error, error) {
	if f.replay != "" {
		return func(provider.Config) (provider.Provider, func() error, error) {
			return replay, func() error { return nil }, nil
		}
	}
	opts := connect.Options{Getenv: secretGetenv, RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log}
	return func(cfg provider.Config) (provider.Provider, func() error, error) {
		return connect.New(cfg, opts)
	}
}

// openStore opens the session store unless the session stays in memory.
func openStore(f *chatFlags, log *zap.Logger) (*agent.Store, error) {
	if f.noSave && f.resume == "" && !f.cont {
		return nil, nil
	}
	dir := f.stateDir
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			return nil, fmt.Errorf("session store: %w (use --state-dir or --no-save)", err)
		}
		dir = d
	}
	return agent.NewStore(dir, log)
}
