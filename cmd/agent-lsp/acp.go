package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/acp"
	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/connect"
	"github.com/agent-lsp/agent-lsp/tools"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// acpIndexFile is where the ACP front end remembers each session's cwd,
// beside the stored sessions.
const acpIndexFile = "acp-sessions.json"

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
	var mcpServers mcpFlags
	fs.Var(&mcpServers, "mcp", "mount an MCP server in every session besides the client's: demo, a command line, or name=command line (repeatable)")
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
	opts := connect.Options{Getenv: secretGetenv, RecordPath: m.record, ReplayPath: m.replay,
		RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log}
	_, keyErr := cfg.APIKey(secretGetenv)
	model, closeModel, modelErr := connect.New(cfg, opts)
	defer func() {
		if err := closeModel(); err != nil {
			log.Warn("closing the recording", zap.Error(err))
		}
	}()
	if modelErr != nil {
		log.Warn("the configured model cannot be reached", zap.Error(modelErr))
	}

	var store *agent.Store
	var index *acp.CwdIndex
	if !*noSave {
		if store, index, err = openACPStore(*stateDir, log); err != nil {
			log.Warn("sessions are not saved", zap.Error(err))
		}
	}
	box.ForceUnavailable = os.Getenv(envForceNoSandbox) == "1"
	if store != nil {
		box.HiddenPaths = []string{store.Dir()}
	}
	ctl := control.New(control.Options{
		Store: store, Logger: log, Model: cfg, ModelErr: modelErr, Provider: model,
		Connect: func(c provider.Config) (provider.Provider, func() error, error) {
			sw := opts
			sw.RecordPath, sw.ReplayPath = "", "" // a switched model talks to the network
			return connect.New(c, sw)
		},
		Mode: mode, Budget: *budget, Keep: *keep, Windows: m.windows(),
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
		AutoApprove: *yes, Index: index, ProtectedFiles: protected,
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
			b, err := sandbox.New(box, ws.Roots())
			if err != nil {
				return nil, false, nil, err
			}
			st := b.Current() // checked at the first command
			b.OnKnown(func(st sandbox.Status) { log.Info("sandbox", zap.String("status", st.Summary())) })
			return tools.NewProcessRunner(b), *autoAllow && (st.Active || st.Checking), b.Close, nil
		},
	})
	if err != nil {
		log.Error("acp ended", zap.Error(err))
		return 1
	}
	return 0
}

// openACPStore opens the session store and the ACP cwd index beside it.
func openACPStore(stateDir string, log *zap.Logger) (*agent.Store, *acp.CwdIndex, error) {
	if stateDir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			return nil, nil, fmt.Errorf("session store: %w (use --state-dir or --no-save)", err)
		}
		stateDir = d
	}
	store, err := agent.NewStore(stateDir, log)
	if err != nil {
		return nil, nil, err
	}
	index, err := acp.OpenCwdIndex(filepath.Join(store.Dir(), acpIndexFile))
	if err != nil {
		log.Warn("session/list will not know stored sessions' directories", zap.Error(err))
		return store, nil, nil
	}
	return store, index, nil
}
