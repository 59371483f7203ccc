package term

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// chatWorld is the session's world the chat runs in: the controller, the
// binding of the session the chat opens (its Notify is the chat's own),
// the sandbox's status line for the banner, and what closes it all.
type chatWorld struct {
	Controller *control.Controller
	Binding    control.Binding
	Sandbox    string
	Close      func() error
}

// openWorld wires the chat's world: the configured model, the workspace
// on disk, the built-in and MCP tools, approvals on the terminal,
// commands through the sandbox, and the session store.
func (t *terminal) openWorld(ctx context.Context) (chatWorld, error) {
	o, progress, stderr, log := t.o, t.Progress(), t.o.Stderr, t.o.Logger
	models, err := world.OpenModels(world.ModelOptions{Getenv: o.Getenv, RecordPath: o.RecordPath, ReplayPath: o.ReplayPath,
		WrapReplay: branchingReplayOf(o.ReplayDeniedPath), RawDump: o.RawDump, Redact: tools.RedactSecrets, Logger: log})
	if err != nil {
		return chatWorld{}, err
	}
	closeModel := models.Close
	model, err := models.Connect(o.Model)
	if err != nil {
		_ = closeModel()
		return chatWorld{}, err
	}
	ws, err := tools.NewWorkspace(o.Dir)
	if err != nil {
		_ = closeModel()
		return chatWorld{}, err
	}
	protected, err := permission.NewProtectedFiles(o.Sandbox.ProtectedFiles) // checked by the flag
	if err != nil {
		_ = closeModel()
		return chatWorld{}, err
	}
	ws.SetProtectedFiles(protected)
	subagents := world.Subagents(ws.Roots(), o.StateDir)
	reg, err := world.NewRegistry(o.WebFetch, subagents)
	if err != nil {
		_ = closeModel()
		return chatWorld{}, err
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
		return chatWorld{}, err
	}
	if err != nil { // not being able to save is no reason not to answer
		fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; this session is not saved\n", err)
	}
	box, err := openSandbox(o, ws, store, progress)
	if err != nil {
		_ = closeAll()
		return chatWorld{}, err
	}
	closeModelAndMCP := closeAll
	closeAll = func() error { return errors.Join(closeModelAndMCP(), box.Close()) }
	var approver permission.Approver = t.approver
	if o.Yes {
		approver = permission.AutoApprover{}
	}
	worktrees := &worktreeBinder{o: o, store: store, progress: progress}
	ctl := control.New(control.Options{
		Worktrees: worktrees.options(),
		Store:     store,
		Logger:    log,
		Model:     o.Model,
		Provider:  model,
		Connect:   models.Connector(), // over the same recorder or replay
		Windows:   o.Windows,
		// The run's flags and environment win over a resumed session's
		// stored model (the README's promise): a line says which won.
		UserModel: o.UserModel,
		Mode:      o.Mode,
		Budget:    o.Budget,
		Keep:      o.Keep,
		// --max-usd, --max-usd-day, --max-tokens-session
		SpendLimit: o.SpendLimit,
		Rules:      world.RuleFiles(o.PermissionsFile, o.StateDir, log),
		OnStoreError: func(_ string, err error) {
			fmt.Fprintf(stderr, "agent-lsp chat: warning: %v; the session goes on unsaved\n", err)
		},
	})
	b := control.Binding{
		Workspace:          ws,
		Docs:               &tools.DiskDocuments{Workspace: ws},
		Runner:             tools.NewProcessRunner(box),
		Approver:           approver,
		AutoAllowSandboxed: o.SandboxAutoAllow && (box.Current().Active || box.Current().Checking), // applied only to commands known contained
		Tools:              reg,
		Prompts:            prompts,
		Subagents:          subagents,
	}
	notice := func(msg string) { fmt.Fprintf(stderr, "agent-lsp chat: %s\n", msg) }
	if r := world.Hooks(o.Hooks, ws, tools.NewProcessRunner(box), ctl.RuleFiles(), notice, log); r != nil {
		b.Hooks = r
		if msg := r.Untrusted(); msg != "" {
			notice(msg)
		}
	}
	return chatWorld{Controller: ctl, Binding: b, Sandbox: box.Current().Summary(),
		Close: func() error { return errors.Join(ctl.Close(), worktrees.close(), closeAll()) }}, nil
}

// branchingReplayOf wraps the replay in the branch of --replay-denied,
// when it is given.
func branchingReplayOf(deniedPath string) func(provider.Provider) (provider.Provider, error) {
	if deniedPath == "" {
		return nil
	}
	return func(replay provider.Provider) (provider.Provider, error) {
		return newBranchingReplay(replay, deniedPath)
	}
}

// openStore opens the session store unless the session stays in memory.
func openStore(o Options) (*agent.Store, error) {
	if o.NoSave && o.Resume == "" && !o.Continue {
		return nil, nil
	}
	log := o.Logger
	if log == nil {
		log = zap.NewNop()
	}
	st, err := world.OpenStore(o.StateDir, log)
	if err != nil && o.StateDir == "" {
		return nil, fmt.Errorf("%w (use --state-dir or --no-save)", err)
	}
	return st, err
}
