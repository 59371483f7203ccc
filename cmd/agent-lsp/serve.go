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

	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/lsp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// runServe serves LSP on stdin/stdout. Settings come from defaults, the
// AGENT_LSP_* environment, these flags, and finally the editor's
// initializationOptions (which win).
func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agent-lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // help goes to stdout, a usage error to stderr, each once
	var m modelFlags
	m.register(fs)
	logFile := fs.String("log-file", "", "write debug logs to this file (default: warnings to stderr)")
	stateDir := fs.String("state-dir", "", "where sessions are stored (default $XDG_STATE_HOME/agent-lsp/sessions)")
	var mcpServers mcpFlags
	fs.Var(&mcpServers, "mcp", "mount an MCP server: demo, a command line, or name=command line; eager: before it sends its tools whole, without tool search (repeatable; .mcp.json and initializationOptions.mcpServers are read too)")
	yes := fs.Bool("yes", false, "approve every action without asking (CRITICAL ones are still refused)")
	var web tools.WebFetchOptions
	registerWebFetchFlags(fs, &web)
	fs.Bool("stdio", true, "serve on stdin/stdout (the only transport; accepted for editors that pass it)")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage+"\nserve flags:\n")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "agent-lsp: %v\n\n%s", err, usage)
		return 2
	}
	log, err := newLogger(*logFile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp: %v\n", err)
		return 2
	}
	defer log.Sync() //nolint:errcheck // nothing useful to do with a failed flush
	modelCfg := m.config(fs, tools.Getenv)
	hideSecrets(modelCfg, log)

	ctx, stop := terminationContext()
	defer stop()
	// An editor that closed our stdout must not kill us by SIGPIPE before we
	// kill our children: with SIGPIPE notified (not ignored, which children
	// would inherit), a write to the closed pipe fails with EPIPE instead.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)

	var rawDump io.Writer
	if m.dumpRaw {
		rawDump = stderr
	}
	// One recorder (or replay) for the daemon's run: a model the editor
	// switches to records into the same file, after what came before.
	// A recording that cannot be opened is the model's error: the daemon
	// still serves and the editor is told at the first prompt.
	models, err := world.OpenModels(world.ModelOptions{Getenv: secretGetenv, RecordPath: m.record, ReplayPath: m.replay,
		RawDump: rawDump, Redact: tools.RedactSecrets, Logger: log})
	if err != nil {
		log.Warn("the model cannot be reached", zap.Error(err))
	}
	defer func() {
		if err := models.Close(); err != nil {
			log.Warn("closing recording", zap.Error(err))
		}
	}()
	code, err := lsp.Serve(ctx, stdin, stdout, lsp.Options{
		Version:     buildVersion(),
		Provider:    modelCfg,
		NewProvider: models.Connect,
		Getenv:      secretGetenv, // model keys and MCP ${VAR}s: read, then hidden
		Logger:      log,
		AutoApprove: *yes,
		WebFetch:    web,
		MCP:         mcpServers,
		StateDir:    *stateDir,
		Windows:     m.windows(),
	})
	if err != nil {
		log.Error("serve ended", zap.Error(err))
	}
	return code
}
