package lsp

import (
	"context"
	"errors"
	"io"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"

	"github.com/agent-lsp/agent-lsp/tools"
)

// Options configures Serve.
type Options struct {
	// Version is the daemon's version, reported in serverInfo ("": "dev").
	// The binary passes its own (set with -ldflags "-X main.version=…").
	Version string
	// Provider is the model connection before the editor's
	// initializationOptions override it: the binary fills it from defaults,
	// the environment and its flags.
	Provider provider.Config
	// NewProvider builds the model client from the final configuration
	// and from every model the editor switches to (the binary picks the
	// dialect; lsp imports none): the binary passes agent/world's
	// Models.Connect, so every connection records into the run's one
	// recording, or answers from its one replay. Required.
	NewProvider func(provider.Config) (provider.Provider, error)
	// Getenv reads the environment (nil: os.Getenv); used to warn at
	// initialize when the API key variable is unset.
	Getenv func(string) string
	// Logger receives the daemon's logs; nil discards them. Never stdout.
	Logger *zap.Logger
	// AutoApprove approves every action the policy would ask about
	// (--yes); initializationOptions.autoApprove overrides it.
	AutoApprove bool
	// IdleNotification is how long after a prompt the Notification
	// hooks hear the agent waits (0: 60 s; negative: never).
	IdleNotification time.Duration
	// WebFetch is web_fetch's settings (--web-fetch-private-network);
	// initializationOptions.webFetch overrides them.
	WebFetch tools.WebFetchOptions
	// StateDir is where sessions are stored, one JSONL file each, so that
	// they survive a restart ("": agent.DefaultStateDir()). When it cannot
	// be created the daemon logs a warning and keeps sessions in memory.
	StateDir string
	// PermissionsFile is the user's permission rules file ("":
	// <user config dir>/agent-lsp/permissions.json); see docs/protocol.md,
	// "Permission rules".
	PermissionsFile string
	// MCP are `--mcp` values (a command line, `name=command line`, or
	// `demo`), merged after .mcp.json and initializationOptions.mcpServers.
	MCP []string
	// Windows asks the model server for the context window of a model the
	// tables do not know, once per model, in the background (never on
	// initialize's path); nil: such a model keeps the default window.
	Windows *provider.WindowCache
}

// readerGrace bounds the wait for the read loop after the input was
// closed: an input that cannot be closed (a plain io.Reader) keeps its
// reader blocked until its writer closes, and Serve does not wait for that.
const readerGrace = 100 * time.Millisecond

// Serve speaks LSP on in/out until the client sends exit, the input ends
// or ctx is cancelled. At the end every prompt is cancelled, the commands
// they run are killed (run_bash kills its process group when its context
// ends) and Serve waits for them, then stops the MCP servers (their
// process groups killed), before returning.
//
// The exit code follows LSP: 0 after shutdown then exit, 1 for exit
// without shutdown; the end of the input counts as exit. err is nil when
// the conversation ended by exit or end of input.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) (exitCode int, err error) {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	st := newStream(in, out, opts.Logger)
	conn := jsonrpc2.NewConn(st)
	s := newServer(ctx, conn, opts)
	s.deferred, s.frames = &st.deferred, st
	conn.Go(ctx, s.handle)

	select {
	case <-s.exited:
		exitCode = s.exitCode()
		s.log.Info("exit", zap.Int("code", exitCode))
	case <-conn.Done():
		exitCode = s.exitCode()
		if rerr := conn.Err(); rerr != nil && !errors.Is(rerr, io.EOF) && !errors.Is(rerr, io.ErrUnexpectedEOF) {
			err = rerr
		}
		s.log.Info("input ended", zap.Int("code", exitCode), zap.Error(conn.Err()))
	case <-ctx.Done():
		exitCode, err = 1, ctx.Err()
	}
	// Nothing more reaches the client: it is gone or said exit.
	st.stopWriting()
	cancel()
	s.tasks.Wait()
	s.endSessions() // hooks_session_end.go
	s.release.stop()
	s.closeMCP() // every MCP child is killed before the daemon ends
	s.closeSandbox()
	s.closeWorktreeBoxes()
	_ = st.Close()
	select {
	case <-conn.Done():
	case <-time.After(readerGrace):
		s.log.Debug("the input cannot be closed; its reader ends when the client closes it")
	}
	return exitCode, err
}
