package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// ProtocolVersion is the version of the agent/* extension, announced as
// capabilities.experimental.agent.protocolVersion.
const ProtocolVersion = 1

// Command names for workspace/executeCommand.
const (
	CommandAsk    = "agent.ask"
	CommandCancel = "agent.cancel"
	CommandRevert = "agent.revert" // checkpoint_lens.go
)

// clientCaps is what the daemon needs to know about the editor.
type clientCaps struct {
	applyEdit       bool // workspace/applyEdit is available
	documentChanges bool // versioned TextDocumentEdits in documentChanges
	createFiles     bool // CreateFile in documentChanges
	deleteFiles     bool // DeleteFile in documentChanges
	progress        bool // window/workDoneProgress/create
	review          bool // agent/review instead of popups for edits (review.go)
	approve         bool // agent/approve instead of popups (approve.go)
	codeLensRefresh bool // workspace/codeLens/refresh (codelens_refresh.go)
}

func (p *initializeParams) caps() clientCaps {
	ws := p.Capabilities.Workspace
	create := slices.Contains(ws.WorkspaceEdit.ResourceOperations, "create")
	return clientCaps{
		applyEdit: ws.ApplyEdit,
		// Neovim 0.7.2 announces resourceOperations but not documentChanges,
		// and handles documentChanges: resource operations only exist there.
		documentChanges: ws.WorkspaceEdit.DocumentChanges || create,
		createFiles:     create,
		deleteFiles:     slices.Contains(ws.WorkspaceEdit.ResourceOperations, "delete"),
		progress:        p.Capabilities.Window.WorkDoneProgress,
		review:          experimentalFlag(p.Capabilities.Experimental, "agentReview"),
		approve:         experimentalFlag(p.Capabilities.Experimental, "agentApprove"),
		codeLensRefresh: ws.CodeLens.RefreshSupport,
	}
}

// settings is the configuration after initialize.
type settings struct {
	model       provider.Config
	autoApprove bool
	mcpServers  json.RawMessage // as given; startMCP reads the entries
	budget      int             // context budget in tokens; 0: the agent's default
	keep        int             // messages kept by compaction; 0: the default

	// Inline completion (inline_completion_config.go); nil: not configured,
	// completionErr says why when it was configured wrongly.
	completion    *completer
	completionErr error

	restricted bool // the folder is not trusted: a read-only agent (restricted.go)

	webFetch tools.WebFetchOptions
	hooks    hooks.Config // the user's (initializationOptions.hooks)
}

// initialize serves initialize (its params: protocol_fixes.go).
func (s *server) initialize(_ context.Context, p initializeParams) (*initializeResult, error) {
	var o initOptions
	if err := decodeParams(p.InitializationOptions, &o); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: %v", err)
	}
	if (o.Budget != nil && *o.Budget < 0) || (o.Keep != nil && *o.Keep < 0) || (o.ContextWindow != nil && *o.ContextWindow < 0) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: budget, keep and contextWindow must not be negative")
	}
	spendLimit, ok := o.SpendLimit.limit()
	if !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.spendLimit: a cap must not be negative, warnAt is a share between 0 and 1")
	}
	mode, presets, err := parseControlOptions(o)
	if err != nil {
		return nil, err
	}
	st := s.merge(o, presets)
	if st.hooks, err = hooks.Parse(o.Hooks); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.%v", err)
	}
	if st.restricted, err = parseWorkspaceTrust(o.WorkspaceTrust); err != nil {
		return nil, err
	}
	st.completion, st.completionErr = s.newCompleter(o.Completion)
	ws, err := workspaceOf(&p)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "workspace: %v", err)
	}
	files, err := permission.NewProtectedFiles(o.ProtectedFiles)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.protectedFiles: %v", err)
	}
	ws.SetProtectedFiles(files)
	caps := p.caps()
	sb, err := s.startSandbox(o.Sandbox, o.ProtectedFiles, ws)
	if err != nil {
		return nil, err
	}

	subagents := world.Subagents(ws.Roots(), s.opts.StateDir)
	if st.restricted {
		subagents = world.Subagents(nil, s.opts.StateDir) // the workspace's files are not even listed
	}
	reg, err := world.NewRegistry(st.webFetch, subagents)
	if err != nil {
		return nil, err
	}
	if st.restricted {
		keepReadOnlyTools(reg)
	}
	editor := p.editorName()
	model, modelErr := s.newModel(st.model, editor)
	ctl := control.New(control.Options{Store: s.store, Logger: s.log, Model: st.model, ModelErr: modelErr,
		Provider: model, Presets: presets, Mode: mode, Budget: st.budget, Keep: st.keep, Windows: s.opts.Windows, SpendLimit: spendLimit,
		Connect: func(cfg provider.Config) (provider.Provider, func() error, error) {
			p, err := s.newModel(cfg, editor)
			return p, nil, err
		},
		OnStoreError: s.sessionNotSaved,
		Worktrees:    control.WorktreeOptions{Dir: deref(o.WorktreeDir), Bind: s.bindWorktree, Release: s.releaseWorktree},
		Rules:        world.RuleFiles(s.opts.PermissionsFile, s.opts.StateDir, s.log),

		IdleNotification: s.opts.IdleNotification, // hooks_idle.go
		SystemPrompt: func(ws *tools.Workspace) string {
			if st.restricted {
				return world.SystemPrompt(ws, restrictedNote)
			}
			return world.SystemPrompt(ws, "")
		},
	})

	s.mu.Lock()
	s.state = stateInitialized
	s.client = caps
	s.settings = st
	s.ws = ws
	s.registry = reg
	s.subagents = subagents
	s.modelErr = modelErr
	s.ctl = ctl
	s.docs = newEditorDocuments(s, ws, sb.runner)
	old := s.sandbox.box
	s.sandbox = sb
	s.mu.Unlock()
	if old != nil {
		_ = old.Close()
	}
	// The servers start in the background: initialize does not wait.
	s.startMCP(ws.Roots(), reg, st.mcpServers)

	s.log.Info("initialized", zap.Strings("roots", ws.Roots()), zap.String("provider", st.model.Provider),
		zap.String("model", st.model.Model), zap.Bool("applyEdit", caps.applyEdit),
		zap.Bool("documentChanges", caps.documentChanges), zap.Bool("progress", caps.progress),
		zap.Bool("autoApprove", st.autoApprove), zap.NamedError("model_error", modelErr))

	return &initializeResult{
		Capabilities: serverCapabilities{InlineCompletionProvider: st.completion.capability(), ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			CodeActionProvider:     true,
			CodeLensProvider:       &protocol.CodeLensOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: []string{CommandAsk, CommandCancel, CommandRevert}},
			// pid: editors whose client no longer exposes the child's pid
			// (Neovim 0.10+) read it here, to check on or signal the daemon.
			// sandbox: the command sandbox's status line (what holds on
			// this machine, for this user), for a status bar or a log.
			Experimental: map[string]any{"agent": map[string]any{"protocolVersion": ProtocolVersion, "pid": os.Getpid(),
				"sandbox": sb.status.Summary(), "workspaceTrust": trustName(st.restricted)}},
		}},
		ServerInfo: &protocol.ServerInfo{Name: "agent-lsp", Version: s.opts.Version},
	}, nil
}

// merge applies the initializationOptions over the daemon's configuration.
func (s *server) merge(o initOptions, presets []modelPreset) settings {
	st := settings{model: s.opts.Provider, autoApprove: s.opts.AutoApprove, mcpServers: o.MCPServers, webFetch: s.opts.WebFetch}
	if o.WebFetch != nil && o.WebFetch.AllowPrivateNetwork != nil {
		st.webFetch.AllowPrivateNetwork = *o.WebFetch.AllowPrivateNetwork
	}
	if o.Provider != nil {
		st.model = st.model.WithProvider(strings.ToLower(strings.TrimSpace(*o.Provider)))
	}
	if o.BaseURL != nil {
		st.model.BaseURL = *o.BaseURL
	}
	if o.Model != nil {
		st.model.Model = *o.Model
	}
	if o.APIKeyEnv != nil {
		st.model.APIKeyEnv = *o.APIKeyEnv
	}
	if o.ServerKind != nil {
		st.model.ServerKind = strings.ToLower(strings.TrimSpace(*o.ServerKind))
	}
	if o.Free != nil {
		st.model.Free = *o.Free
	} else if o.BaseURL != nil && *o.BaseURL != s.opts.Provider.BaseURL {
		st.model.Free = false // the daemon's --free spoke of another server
	}
	if o.AutoApprove != nil {
		st.autoApprove = *o.AutoApprove
	}
	if o.Budget != nil {
		st.budget = *o.Budget
	}
	if o.ContextWindow != nil {
		st.model.ContextWindow = *o.ContextWindow
	}
	if o.Keep != nil {
		st.keep = *o.Keep
	}
	hideKeyEnvs(st.model, control.AllPresets(presets))
	return st
}

// hideKeyEnvs takes the key variables the editor's configuration names
// (the model's, its presets') out of the environment before any child
// starts, whatever their names; the binary hid the flags' and defaults'.
func hideKeyEnvs(model provider.Config, presets []modelPreset) {
	names := []string{model.APIKeyEnv}
	for _, p := range presets {
		names = append(names, p.APIKeyEnv)
	}
	_ = tools.HideEnv(names...) // a failed wipe of the start-up block was logged at start
}

// newModel builds the model client; its error is reported by prompts, so
// a misconfigured daemon still starts and says what is wrong.
func (s *server) newModel(cfg provider.Config, editor string) (provider.Provider, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("model configuration: %w", err)
	}
	if _, err := cfg.APIKey(s.getenv); err != nil {
		if missing, ok := errors.AsType[*provider.MissingKeyError](err); ok {
			return nil, missingKey(missing.Var, editor)
		}
		return nil, err
	}
	if s.opts.NewProvider == nil {
		return nil, fmt.Errorf("no model client: the daemon was started without a provider factory")
	}
	p, err := s.opts.NewProvider(cfg)
	if err != nil {
		return nil, fmt.Errorf("model client: %w", err)
	}
	return p, nil
}

// missingKey is the missing-key message for an editor's user: what to set
// and where, in the settings of the editor the user is in (clientInfo),
// short, since an editor shows it as a toast; the provider's message
// speaks of the terminal's flags, which an editor user never types. The
// head "no API key: the environment variable X is not set" is stable:
// the VS Code extension recognises it and offers its Set API Key button.
func missingKey(name, editor string) error {
	head := fmt.Sprintf("no API key: the environment variable %s is not set", name)
	switch {
	case strings.Contains(editor, "Code") || strings.Contains(editor, "code-server"):
		return fmt.Errorf("%s. Run \"agent-lsp: Set API Key\", or name another variable in the agentLsp.apiKeyEnv setting", head)
	case strings.Contains(strings.ToLower(editor), "neovim") || strings.Contains(strings.ToLower(editor), "nvim"):
		return fmt.Errorf("%s. Set it in the environment Neovim starts from, or name another variable with api_key_env in setup()", head)
	}
	return fmt.Errorf("%s. Set it in the environment the editor starts from, or name another variable with the apiKeyEnv initialization option (\"none\" for a model without a key)", head)
}

// editorName is the client's name from clientInfo ("" when it sent none).
func (p *initializeParams) editorName() string {
	if p.ClientInfo == nil {
		return ""
	}
	return p.ClientInfo.Name
}

// workspaceOf takes the roots from workspaceFolders, else rootUri, else
// rootPath, else the current directory.
func workspaceOf(p *initializeParams) (*tools.Workspace, error) {
	var roots []string
	for _, f := range p.WorkspaceFolders {
		path, err := uriToPath(f.URI)
		if err != nil {
			return nil, err
		}
		roots = append(roots, path)
	}
	if len(roots) == 0 && p.RootURI != "" {
		path, err := uriToPath(p.RootURI)
		if err != nil {
			return nil, err
		}
		roots = append(roots, path)
	}
	if len(roots) == 0 && p.RootPath != "" {
		roots = append(roots, p.RootPath)
	}
	if len(roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		roots = append(roots, wd)
	}
	return tools.NewWorkspace(roots...)
}

// initialized tells the user, once, when the model cannot be used and
// which MCP configuration entries were skipped.
func (s *server) initialized(context.Context) (noResult, error) {
	s.mu.Lock()
	err, completionErr := s.modelErr, s.settings.completionErr
	s.mu.Unlock()
	if completionErr != nil {
		s.notify("window/showMessage", protocol.ShowMessageParams{
			Type: protocol.MessageTypeWarning, Message: "agent-lsp: inline completion is off: " + completionErr.Error()})
	}
	if err != nil {
		s.notify("window/showMessage", protocol.ShowMessageParams{
			Type: protocol.MessageTypeWarning, Message: "agent-lsp: " + err.Error()})
	}
	s.reportMCPConfig()
	s.reportStoreUnusable()
	s.askMCPTrust() // in the background: workspace .mcp.json entries
	s.reportSandbox()
	return noResult{}, nil
}

func (s *server) shutdown(context.Context) (noResult, error) {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	s.sessions.dropQueues() // first: the cancelled prompts' ends start no queued one
	s.sessions.cancelAll()
	return noResult{}, nil
}

func (s *server) exit(context.Context) (noResult, error) {
	s.exitOnce.Do(func() { close(s.exited) })
	return noResult{}, nil
}

// notify sends a notification; a failure only means the client is gone.
func (s *server) notify(method string, params any) {
	if err := s.conn.Notify(context.WithoutCancel(s.ctx), method, params); err != nil && !isClosed(err) {
		s.log.Warn("notification not sent", zap.String("method", method), zap.Error(err))
	}
}
