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
	"github.com/agent-lsp/agent-lsp/tools"
)

// newChat wires the terminal to a controller session: the configured
// model, the workspace on disk, the built-in and MCP tools, approvals on
// the terminal, commands through the sandbox, and the session store.
func newChat(ctx context.Context, f *chatFlags, fs *flag.FlagSet, stdin io.Reader, p *printer, stderr io.Writer, log *zap.Logger) (*chat, error) {
	progress, color := p.progress, p.color
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
		return nil, err
	}
	if f.replay != "" && f.replayDenied != "" {
		if model, err = newBranchingReplay(model, f.replayDenied); err != nil {
			_ = closeModel()
			return nil, err
		}
	}
	ws, err := tools.NewWorkspace(f.dir)
	if err != nil {
		_ = closeModel()
		return nil, err
	}
	protected, err := permission.NewProtectedFiles(f.sandbox.ProtectedFiles) // checked by the flag
	if err != nil {
		_ = closeModel()
		return nil, err
	}
	ws.SetProtectedFiles(protected)
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		_ = closeModel()
		return nil, err
	}
	closeAll := closeModel
	// Created first: it owns stdin, and the MCP trust questions read their
	// answers through it.
	approverTTY := permission.NewTerminalApprover(stdin, progress, color)
	var prompts control.PromptSource // nil, not a nil *mcp.Manager: no MCP prompts
	if m := mountMCP(ctx, ws, reg, mcpMount{flags: f.mcp, trustWorkspace: f.trustWorkspace, yes: f.yes,
		stateDir: f.stateDir, answers: approverTTY, out: visibleWriter{progress}}, log); m != nil {
		prompts = m
		closeAll = func() error { return errors.Join(m.Close(), closeModel()) }
	}
	store, err := openStore(f, log)
	if err != nil && (f.resume != "" || f.cont) {
		_ = closeAll()
		return nil, err
	}
	if err != nil { // not being able to save is no reason not to answer
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; this session is not saved\n", err)
	}
	box, err := openSandbox(f, ws, store, progress, log)
	if err != nil {
		_ = closeAll()
		return nil, err
	}
	closeModelAndMCP := closeAll
	closeAll = func() error { return errors.Join(closeModelAndMCP(), box.Close()) }
	var approver permission.Approver = approverTTY
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
	cc := &chatControl{ctl: ctl, ws: ws, p: p}
	b := control.Binding{
		Workspace:          ws,
		Docs:               &tools.DiskDocuments{Workspace: ws},
		Runner:             tools.NewProcessRunner(box),
		Approver:           approver,
		AutoAllowSandboxed: f.sandboxAutoAllow && (box.Current().Active || box.Current().Checking), // applied only to commands known contained
		Tools:              reg,
		Prompts:            prompts,
		Notify:             cc.notify,
	}
	if err := cc.open(f, store, b); err != nil {
		_ = ctl.Close()
		_ = closeAll()
		return nil, err
	}
	return &chat{ctl: cc, p: p, lines: approverTTY, sandbox: box.Current().Summary(),
		closeAll: func() error { return errors.Join(ctl.Close(), closeAll()) }}, nil
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
