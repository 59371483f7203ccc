package acp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
	"go.uber.org/zap"
	"go.uber.org/zap/zapio"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/hooks"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Options configure the ACP agent.
type Options struct {
	Control *control.Controller // sessions, models, modes, commands (required)
	Logger  *zap.Logger         // never stdout: it carries the protocol
	Version string              // agentInfo.version: the binary passes its build version
	// KeyEnv names the variable the configured model's key is read from;
	// KeyMissing says it is unset (initialize then offers one auth method
	// saying which variable to set).
	KeyEnv     string
	KeyMissing bool
	// AutoApprove answers every question the policy asks with yes
	// (--yes); CRITICAL actions are still refused.
	AutoApprove bool
	// Hooks are the user's hooks (--settings); a workspace's run once
	// trusted (/hooks trust).
	Hooks hooks.Config
	// StoreErr says why sessions cannot be saved (no state directory):
	// load, list and resume are then not offered, and each new session
	// says so first. nil: saved (or kept in memory by choice, --no-save).
	StoreErr error
	// WebFetch is web_fetch's settings (--web-fetch-private-network).
	WebFetch tools.WebFetchOptions
	// LocalRunner runs commands for a client without terminal support:
	// our process runner (inside the sandbox when enabled) for a
	// workspace, whether sandboxed commands run without asking, and what
	// to close with the session. nil: an unsandboxed process runner.
	LocalRunner func(ws *tools.Workspace) (tools.CommandRunner, bool, func() error, error)
	// ProtectedFiles are the protected workspace files of every session's
	// workspace: the built-in list with the user's entries (--protect).
	ProtectedFiles permission.ProtectedFiles
	// ContextWindow is the context size in tokens reported in
	// usage_update; 0: the agent's default budget is not known, 128k.
	ContextWindow int
	// MCP is the MCP servers of the command line (--mcp) every session
	// mounts besides the client's, for a workspace root; nil: none.
	MCP func(root string) []mcp.ServerConfig
}

// Serve speaks ACP on r/w until the client disconnects or ctx ends, then
// closes every session it opened.
func Serve(ctx context.Context, r io.Reader, w io.Writer, o Options) error {
	if o.Control == nil {
		return errors.New("acp: no controller")
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	a := newServer(ctx, o)
	// session/delete goes around the SDK, which does not know it (sdk_delete.go).
	out := &protocolOut{w: w, offer: func() bool { return o.StoreErr == nil }}
	in := &deleteShim{r: bufio.NewReader(r), out: out, del: a.deleteSession}
	conn := sdk.NewAgentSideConnection(a, out, in)
	// The SDK's own diagnostics (undecodable messages) join our log.
	sdkLog := &lockedWriter{w: &zapio.Writer{Log: o.Logger.Named("acp-sdk"), Level: zap.InfoLevel}}
	conn.SetLogger(slog.New(slog.NewTextHandler(sdkLog, nil)))
	a.setPeer(conn)
	select {
	case <-conn.Done():
	case <-ctx.Done():
	}
	defer sdkLog.stop()
	return a.closeAll()
}

// server is the ACP agent: one per connection.
type server struct {
	o    Options
	log  *zap.Logger
	ctx  context.Context // the connection's lifetime: notifications, MCP servers
	stop context.CancelFunc
	// ready is closed once peer is set: the connection reads requests as
	// soon as it exists, before Serve can hand it to the server.
	ready chan struct{}

	mu       sync.Mutex // guards the fields below
	peer     peer
	caps     sdk.ClientCapabilities
	sessions map[sdk.SessionId]*session
}

func newServer(ctx context.Context, o Options) *server {
	ctx, stop := context.WithCancel(ctx)
	return &server{o: o, log: o.Logger, ctx: ctx, stop: stop, ready: make(chan struct{}), sessions: map[sdk.SessionId]*session{}}
}

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

func (a *server) setPeer(p peer) {
	a.mu.Lock()
	a.peer = p
	a.mu.Unlock()
	close(a.ready)
}

func (a *server) clientCaps() (peer, sdk.ClientCapabilities) {
	<-a.ready
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.peer, a.caps
}

// session returns an open session, or the error for an unknown id.
func (a *server) session(id sdk.SessionId) (*session, error) {
	a.mu.Lock()
	s, ok := a.sessions[id]
	a.mu.Unlock()
	if !ok {
		return nil, resourceNotFound(fmt.Sprintf("no open session %q", id))
	}
	return s, nil
}

func (a *server) add(s *session) {
	a.mu.Lock()
	a.sessions[s.id] = s
	a.mu.Unlock()
}

func (a *server) remove(id sdk.SessionId) (*session, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.sessions[id]
	delete(a.sessions, id)
	return s, ok
}

// closeAll ends every session: the client is gone.
func (a *server) closeAll() error {
	a.o.Control.CancelAll(errors.New("the ACP client disconnected"))
	a.o.Control.EndSessions(context.Background(), control.EndOther) // SessionEnd, bounded, before the sandboxes go
	a.mu.Lock()
	all := make([]*session, 0, len(a.sessions))
	for _, s := range a.sessions {
		all = append(all, s)
	}
	a.sessions = map[sdk.SessionId]*session{}
	a.mu.Unlock()
	var errs []error
	for _, s := range all {
		errs = append(errs, s.close())
	}
	a.stop()
	return errors.Join(errs...)
}

// reqErr maps a controller error to its JSON-RPC error, unwrapped (see
// sdk_gaps.go).
func reqErr(err error) error {
	var re *sdk.RequestError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re):
		return re
	case errors.Is(err, control.ErrUnknownSession):
		return resourceNotFound(err.Error())
	case errors.Is(err, control.ErrInvalid):
		return invalidParams(err)
	case errors.Is(err, context.Canceled):
		return sdk.NewRequestCancelled(map[string]any{"error": err.Error()})
	}
	return sdk.NewInternalError(map[string]any{"error": err.Error()})
}

// lockedWriter serializes the SDK's goroutines' log lines into one
// zapio.Writer (which is not safe for concurrent use). slog writes whole
// lines, so each Write is flushed as one entry.
type lockedWriter struct {
	mu      sync.Mutex
	w       *zapio.Writer
	stopped bool // Serve returned: the SDK's late lines (its receive loop ending) are dropped
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped {
		return len(p), nil
	}
	return l.w.Write(p)
}

// stop drops what is written from now on: the logger belongs to Serve's
// caller, who may close it once Serve has returned.
func (l *lockedWriter) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
}
