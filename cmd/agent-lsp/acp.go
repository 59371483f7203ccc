package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/acp"
	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// runACP serves the Agent Client Protocol on stdin/stdout (an ACP client
// such as Zed starts `agent-lsp acp`). Model settings are the daemon's:
// defaults, AGENT_LSP_* variables, then these flags.
func runACP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agent-lsp acp", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // help goes to stdout (it serves nothing then), a usage error to stderr, each once
	fs.Usage = func() {}
	var m modelFlags
	m.register(fs)
	logFile := fs.String("log-file", "", "write debug logs to this file (default: warnings to stderr)")
	stateDir := fs.String("state-dir", "", "where sessions are stored (default $XDG_STATE_HOME/agent-lsp/sessions)")
	noSave := fs.Bool("no-save", false, "keep sessions in memory only (session/load then knows only this run's)")
	yes := fs.Bool("yes", false, "approve every action without asking (CRITICAL ones are still refused)")
	budget := fs.Int("budget", 0, "context budget in tokens (default: 80% of the model's context window, at most 64000)")
	keep := fs.Int("keep", 0, "recent messages kept verbatim by compaction (default 8)")
	var mode agent.Mode
	fs.Func("mode", "starting mode: ask, plan, default, auto-edit", func(v string) error {
		var err error
		mode, err = agent.ParseMode(v)
		return err
	})
	var box sandbox.Settings
	autoAllow := new(bool)
	registerSandboxFlags(fs, &box, autoAllow)
	var web tools.WebFetchOptions
	registerWebFetchFlags(fs, &web)
	settings := fs.String("settings", "", `a JSON settings file whose "hooks" are your hooks (Claude Code's format)`)
	var spend agent.SpendLimit
	registerSpendFlags(fs, &spend)
	var mcpServers mcpFlags
	fs.Var(&mcpServers, "mcp", "mount an MCP server in every session besides the client's: demo, a command line, or name=command line; eager: before it sends its tools whole, without tool search (repeatable)")
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport; accepted as the daemon accepts it)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, "usage: agent-lsp acp [flags]\n\nflags:\n")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "agent-lsp acp: %v (agent-lsp acp -h lists the flags)\n", err)
		return 2
	}
	log, err := newLogger(*logFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp acp: %v\n", err)
		return 2
	}
	defer log.Sync() //nolint:errcheck // nothing useful to do with a failed flush
	cfg := m.config(fs, tools.Getenv)
	hideSecrets(cfg, log)

	ctx, stop := terminationContext()
	defer stop()
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) // as the daemon: EPIPE, not death

	var rawDump io.Writer
	if m.dumpRaw {
		rawDump = stderr
	}
	// One recorder (or replay) for the run: a model the client switches a
	// session to records into the same file, and replays from it.
	// One that cannot be opened is every model's error (Connect's, below).
	models, _ := world.OpenModels(world.ModelOptions{Getenv: secretGetenv, RecordPath: m.record, ReplayPath: m.replay,
		RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log})
	defer func() {
		if err := models.Close(); err != nil {
			log.Warn("closing the recording", zap.Error(err))
		}
	}()
	_, keyErr := cfg.APIKey(secretGetenv)
	model, modelErr := models.Connect(cfg)
	if modelErr != nil {
		log.Warn("the configured model cannot be reached", zap.Error(modelErr))
	}

	var userHooks hooks.Config
	if *settings != "" {
		if userHooks, err = hooks.ReadSettingsFile(*settings); err != nil {
			fmt.Fprintf(stderr, "agent-lsp acp: --settings: %v\n", err)
			return 2
		}
	}
	var store *agent.Store
	var storeErr error // the client is told (acp.Options.StoreErr)
	if !*noSave {
		if store, err = world.OpenStore(*stateDir, log); err != nil {
			log.Warn("sessions are not saved (use --state-dir or --no-save)", zap.Error(err))
			storeErr = err
		}
	}
	box.ForceUnavailable = os.Getenv(envForceNoSandbox) == "1"
	ctl := control.New(control.Options{
		Store: store, Logger: log, Model: cfg, ModelErr: modelErr, Provider: model,
		Connect: models.Connector(),
		Mode:    mode, Budget: *budget, Keep: *keep, Windows: m.windows(),
		SpendLimit: spend,
		Rules:      world.RuleFiles("", *stateDir, log),
	})
	defer func() {
		if err := ctl.Close(); err != nil {
			log.Warn("closing switched models", zap.Error(err))
		}
	}()
	protected, err := permission.NewProtectedFiles(box.ProtectedFiles) // checked by the flag
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp acp: %v\n", err)
		return 2
	}
	err = acp.Serve(ctx, stdin, stdout, acp.Options{
		Control: ctl, Logger: log, Version: buildVersion(),
		KeyEnv: cfg.APIKeyEnv, KeyMissing: keyErr != nil && m.replay == "",
		AutoApprove: *yes, ProtectedFiles: protected, WebFetch: web, StoreErr: storeErr, Hooks: userHooks,
		MCP: func(root string) []mcp.ServerConfig {
			// Only the command line's servers: the workspace's .mcp.json is
			// untrusted and ACP has no way to ask about it before a prompt.
			loaded := mcp.LoadConfig(root, nil, mcpServers, secretGetenv)
			for _, err := range loaded.Errors {
				log.Warn("MCP config", zap.Error(err))
			}
			return loaded.Servers
		},
		LocalRunner: func(ws *tools.Workspace) (tools.CommandRunner, bool, func() error, error) {
			b, err := world.OpenSandbox(box, store, ws, log) // the sessions hidden from commands
			if err != nil {
				return nil, false, nil, err
			}
			st := b.Current() // checked at the first command (agent/world logs it once known)
			return tools.NewProcessRunner(b), *autoAllow && (st.Active || st.Checking), b.Close, nil
		},
	})
	if err != nil {
		log.Error("acp ended", zap.Error(err))
		return 1
	}
	return 0
}
