package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// legacyProtocolVersion is what a server that ignores server/discover is
// asked for on the second try: the newest revision with the initialize
// handshake.
const legacyProtocolVersion = "2025-11-25"

// terminateGrace is how long closing a stdio server waits after closing its
// stdin before SIGTERM (the SDK's default of 5 s would make every shutdown
// of a server that ignores EOF, like server-everything, take 5 s).
const terminateGrace = 500 * time.Millisecond

// conn is one live connection to a server: the SDK session and, for stdio,
// the process behind it.
type conn struct {
	session  *sdk.ClientSession
	cmd      *exec.Cmd     // nil for HTTP
	stderr   *stderrTail   // nil for HTTP
	http     *originClient // nil for stdio
	protocol string        // negotiated protocol version
	fallback bool          // discover went unanswered; initialize was used

	once sync.Once
	exit string
}

// pid is the server process's id, 0 for HTTP.
func (c *conn) pid() int {
	if c.cmd == nil || c.cmd.Process == nil {
		return 0
	}
	return c.cmd.Process.Pid
}

// shutdown ends the session and then everything left in the server's
// process group, once; later calls wait for the first and return the same.
// The result is the process's exit description ("exit status 3") when there
// was a process.
func (c *conn) shutdown() string {
	c.once.Do(func() {
		_ = c.session.Close() // stdin EOF, grace, SIGTERM, SIGKILL: bounded by the SDK
		if c.cmd == nil {
			return
		}
		_ = killProcessGroup(c.pid())
		if st := c.cmd.ProcessState; st != nil {
			c.exit = st.String()
		}
	})
	return c.exit
}

// configError marks a failure that retrying cannot fix (the command does
// not exist, the working directory is missing).
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// dial connects to the server: the SDK's server/discover probe for
// 2026-07-28 with its fallback to initialize, bounded by the manager's
// connect timeout. A stdio server that lets the probe go unanswered (a
// legacy server ignoring unknown methods) hangs the whole probe: it gets a
// second, fresh process asked straight for 2025-11-25.
func (s *server) dial(ctx context.Context) (*conn, error) {
	first := s.m.connectTimeout
	if s.cfg.Type == TypeStdio {
		first = min(first, s.m.discoverTimeout)
	}
	c, err := s.dialOnce(ctx, "", first)
	if err == nil || s.cfg.Type != TypeStdio || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
		return c, err
	}
	s.log.Warn("no answer to server/discover; retrying with a fresh process and the initialize handshake",
		zap.String("protocol", legacyProtocolVersion), zap.Error(err))
	c, err2 := s.dialOnce(ctx, legacyProtocolVersion, s.m.connectTimeout)
	if err2 != nil {
		return nil, fmt.Errorf("%w (retried with initialize at %s: %v)", err, legacyProtocolVersion, err2)
	}
	c.fallback = true
	return c, nil
}

func (s *server) dialOnce(ctx context.Context, version string, timeout time.Duration) (*conn, error) {
	c := &conn{}
	var t sdk.Transport
	switch s.cfg.Type {
	case TypeStdio:
		cmd, err := s.command()
		if err != nil {
			return nil, err
		}
		c.cmd, c.stderr = cmd, newStderrTail(s.log)
		cmd.Stderr = c.stderr
		t = &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateGrace}
	case TypeHTTP:
		c.http = newOriginClient(s.cfg.URL, s.cfg.Headers, s.log)
		t = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: c.http.client(), MaxRetries: 2}
	case TypeSSE:
		c.http = newOriginClient(s.cfg.URL, s.cfg.Headers, s.log)
		t = &sdk.SSEClientTransport{Endpoint: s.cfg.URL, HTTPClient: c.http.client()}
	default:
		return nil, &configError{fmt.Errorf("unknown transport type %q", s.cfg.Type)}
	}
	if wrap := s.m.wrapTransport; wrap != nil {
		t = wrap(s.cfg.Name, t)
	}
	if c.cmd != nil {
		// Forked on the spawner's thread, which outlives the process
		// (Pdeathsig: procgroup_spawner.go), in a PID namespace of its
		// own where the machine allows one (containTree).
		t = spawnedTransport{inner: t, sp: s.m.spawn, started: s.containTree(ctx, c.cmd)}
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	session, err := s.client().Connect(cctx, t, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		if c.cmd != nil && c.cmd.Process != nil {
			_ = killProcessGroup(c.cmd.Process.Pid) // the SDK closed its end; leave nothing behind
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, &configError{fmt.Errorf("starting %s: %w", s.cfg.Command, err)}
		}
		if cctx.Err() != nil && ctx.Err() == nil {
			err = fmt.Errorf("no answer within %s: %w", timeout, context.DeadlineExceeded)
		}
		return nil, s.describeFailure(fmt.Errorf("connecting: %w", err), c)
	}
	c.session = session
	if res := session.InitializeResult(); res != nil {
		c.protocol = res.ProtocolVersion
	}
	return c, nil
}

// describeFailure adds what the process said on its way out (exit status,
// last stderr lines) to err, or for HTTP the other origin a redirect led
// to, which got none of the entry's credentials.
func (s *server) describeFailure(err error, c *conn) error {
	if c == nil {
		return err
	}
	if to := c.http.redirectedTo(); to != "" {
		return &describedError{msg: err.Error() + "; the server redirected to " + to +
			", another origin, which was sent none of the entry's headers or credentials", err: err}
	}
	if c.cmd == nil {
		return err
	}
	msg := err.Error()
	if st := c.cmd.ProcessState; st != nil {
		msg += "; " + st.String()
	}
	if tail := c.stderr.Last(5); tail != "" {
		msg += "; stderr: " + tail
	}
	return &describedError{msg: msg, err: err}
}

type describedError struct {
	msg string
	err error
}

func (e *describedError) Error() string { return e.msg }
func (e *describedError) Unwrap() error { return e.err }

// command builds the server's process: its own process group, a scrubbed
// environment, the workspace as default working directory.
func (s *server) command() (*exec.Cmd, error) {
	path, err := exec.LookPath(s.cfg.Command)
	if err != nil {
		return nil, &configError{fmt.Errorf("command %q: %w", s.cfg.Command, err)}
	}
	cmd := exec.Command(path, s.cfg.Args...)
	cmd.Env = serverEnv(s.cfg)
	cmd.Dir = s.cfg.Cwd
	if cmd.Dir == "" && len(s.m.roots) > 0 {
		cmd.Dir = s.m.roots[0]
	}
	if cmd.Dir != "" {
		if fi, err := statDir(cmd.Dir); err != nil || !fi {
			return nil, &configError{fmt.Errorf("working directory %q: not a directory (%v)", cmd.Dir, err)}
		}
	}
	// A grandchild holding stderr open must not keep Wait (and so Close)
	// from returning after the server itself has exited.
	cmd.WaitDelay = time.Second
	ownProcessGroup(cmd)
	return cmd, nil
}

// client builds the SDK client for one connection attempt: the handlers of
// list-changed notifications refresh this server's tools, and the
// workspace roots are advertised (server-filesystem takes them as its
// allowed directories).
func (s *server) client() *sdk.Client {
	refresh := func(context.Context) { s.refreshSoon() }
	c := sdk.NewClient(&sdk.Implementation{Name: "agent-lsp", Version: clientVersion}, &sdk.ClientOptions{
		Logger:                     slogToZap(s.log),
		ToolListChangedHandler:     func(ctx context.Context, _ *sdk.ToolListChangedRequest) { refresh(ctx) },
		PromptListChangedHandler:   func(ctx context.Context, _ *sdk.PromptListChangedRequest) { refresh(ctx) },
		ResourceListChangedHandler: func(ctx context.Context, _ *sdk.ResourceListChangedRequest) { refresh(ctx) },
	})
	var roots []*sdk.Root
	for _, r := range s.m.roots {
		roots = append(roots, &sdk.Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String(), Name: filepath.Base(r)})
	}
	c.AddRoots(roots...)
	return c
}

// clientVersion is what this client reports as its version.
const clientVersion = "0.1.0"
