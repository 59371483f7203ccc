package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// State is a server's lifecycle state.
type State string

const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateDown     State = "down"
)

// server is one configured MCP server: its connection (when up), the tools
// it contributes to the registry, and the restart bookkeeping.
type server struct {
	m      *Manager
	cfg    ServerConfig
	prefix string // tool-name prefix, unique among servers
	log    *zap.Logger

	mu         sync.Mutex
	state      State
	c          *conn // nil when down
	lastErr    string
	permanent  bool          // a configuration error: never restarted
	failures   int           // consecutive, for the backoff
	retryAt    time.Time     // no restart before this
	dialing    chan struct{} // closed when the running connect attempt ends
	recovering bool          // a background job is bringing the server back
	closed     bool
	protocol   string
	adapters   map[string]*toolAdapter // exposed name → registered tool
	prompts    []PromptInfo
	pending    bool // a refresh is queued
}

func (s *server) timeout() time.Duration {
	if s.cfg.Timeout > 0 {
		return s.cfg.Timeout
	}
	return DefaultCallTimeout
}

// connectAndLoad (re)connects and mounts the server's tools. The caller
// holds the dialing slot.
func (s *server) connectAndLoad(ctx context.Context) error {
	c, err := s.dial(ctx)
	if err != nil {
		s.failed(err)
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.shutdown()
		return errors.New("the manager is closed")
	}
	s.c = c
	s.protocol = c.protocol
	s.mu.Unlock()
	s.m.goBackground(func() { s.watch(c) })

	lctx, cancel := context.WithTimeout(ctx, s.m.connectTimeout)
	defer cancel()
	if err := s.load(lctx, c); err != nil {
		msg := s.drop(c, fmt.Errorf("listing its tools: %w", err))
		return errors.New(msg)
	}
	s.mu.Lock()
	if s.c == c {
		s.state = StateReady
		s.lastErr = ""
		s.failures = 0 // the next failure waits the shortest backoff again
	}
	n := len(s.adapters)
	s.mu.Unlock()
	s.log.Info("MCP server ready", zap.String("protocol", c.protocol), zap.Bool("initialize_fallback", c.fallback),
		zap.Int("tools", n), zap.Int("pid", c.pid()))
	s.m.changed()
	return nil
}

// watch notices a server that goes away on its own (exits, closes stdout,
// breaks the protocol) and marks it down; its tools stay registered while
// it is restarted.
func (s *server) watch(c *conn) {
	err := c.session.Wait()
	cause := errors.New("the connection ended")
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) {
		cause = fmt.Errorf("the connection ended: %w", err)
	}
	s.drop(c, cause)
}

// failed records a failed connect attempt and, unless retrying cannot
// help, has the server restarted in the background after the backoff.
func (s *server) failed(err error) {
	var cfgErr *configError
	s.mu.Lock()
	s.state = StateDown
	s.lastErr = err.Error()
	s.permanent = errors.As(err, &cfgErr)
	s.failures++
	wait := s.m.backoff(s.failures)
	s.retryAt = s.m.clock.Now().Add(wait)
	permanent, closed := s.permanent, s.closed
	s.mu.Unlock()
	if closed {
		return // Close abandoned the attempt: nothing to report or retry
	}
	if permanent {
		s.log.Warn("MCP server failed to start; a configuration error, not retried", zap.Error(err))
	} else {
		s.log.Warn("MCP server failed to start", zap.Error(err), zap.Duration("retry_in", wait))
		s.recoverSoon()
	}
	s.m.changed()
}

// drop ends connection c (if it is still the current one, the server goes
// down and is restarted after the backoff) and returns the full reason: cause,
// exit status, last stderr lines. Safe to call more than once.
func (s *server) drop(c *conn, cause error) string {
	exit := c.shutdown()
	msg := cause.Error()
	if exit != "" {
		msg += "; " + exit
	}
	if c.stderr != nil {
		if tail := c.stderr.Last(5); tail != "" {
			msg += "; stderr: " + tail
		}
	}
	s.mu.Lock()
	current := s.c == c
	if current {
		s.c = nil
		s.state = StateDown
		s.lastErr = msg
		s.failures++
		s.retryAt = s.m.clock.Now().Add(s.m.backoff(s.failures))
	}
	closed := s.closed
	s.mu.Unlock()
	if current && !closed {
		s.log.Warn("MCP server down", zap.String("reason", msg))
		s.recoverSoon()
		s.m.changed()
	}
	return msg
}

// session returns the live connection, restarting a server that is down
// once its backoff has passed (the background recovery usually has by
// then). Within the backoff it fails at once: a call never waits for it.
func (s *server) session(ctx context.Context) (*conn, error) {
	for {
		s.mu.Lock()
		switch {
		case s.closed:
			s.mu.Unlock()
			return nil, fmt.Errorf("MCP server %s: shut down", s.cfg.Name)
		case s.c != nil && s.state == StateReady:
			c := s.c
			s.mu.Unlock()
			return c, nil
		case s.dialing != nil:
			ch := s.dialing
			s.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		case s.permanent:
			err := fmt.Errorf("MCP server %s is not available: %s (a configuration problem: it is not retried)", s.cfg.Name, s.lastErr)
			s.mu.Unlock()
			return nil, err
		case s.m.clock.Now().Before(s.retryAt):
			err := fmt.Errorf("MCP server %s is down: %s; next restart attempt in %s",
				s.cfg.Name, s.lastErr, s.retryAt.Sub(s.m.clock.Now()).Round(100*time.Millisecond))
			s.mu.Unlock()
			return nil, err
		}
		ch := make(chan struct{})
		s.dialing, s.state = ch, StateStarting
		s.mu.Unlock()
		s.log.Info("restarting MCP server for a call")
		if err := s.restart(ctx, ch); err != nil {
			return nil, fmt.Errorf("MCP server %s could not be restarted: %w", s.cfg.Name, err)
		}
	}
}

// withSession runs one request against the server with the per-call
// timeout and sorts out what a failure means. A *jsonrpc.Error is the
// server refusing (session fine); a timeout leaves the session usable but
// probes whether the server still answers at all; anything else (EOF, a
// stray non-JSON line, a broken frame) means the server is gone: it is
// marked down and restarted after the backoff.
func (s *server) withSession(ctx context.Context, what string, f func(context.Context, *sdk.ClientSession) error) error {
	c, err := s.session(ctx)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout())
	defer cancel()
	err = f(cctx, c.session)
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		s.mu.Lock()
		s.failures = 0
		s.mu.Unlock()
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &rpcErr):
		return fmt.Errorf("MCP server %s refused %s: %s (JSON-RPC error %d)", s.cfg.Name, what, rpcErr.Message, rpcErr.Code)
	case errors.Is(err, context.DeadlineExceeded):
		s.m.goBackground(func() { s.probe(c) })
		return fmt.Errorf("MCP server %s: %s timed out after %s", s.cfg.Name, what, s.timeout())
	}
	msg := s.drop(c, fmt.Errorf("%s failed: %w", what, err))
	return fmt.Errorf("MCP server %s stopped working: %s; it will be restarted automatically", s.cfg.Name, msg)
}

// callTool calls one of the server's tools.
func (s *server) callTool(ctx context.Context, name string, args json.RawMessage) (tools.Result, error) {
	var res *sdk.CallToolResult
	err := s.withSession(ctx, fmt.Sprintf("tool %q", name), func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		return err
	})
	if err != nil {
		return tools.Result{}, err
	}
	return tools.Result{Output: resultText(res), IsError: res.IsError}, nil
}

// probe checks, after a call timed out, that the server still answers a
// trivial request; a server that does not is killed (and restarted after
// the backoff) rather than left to time out every call.
func (s *server) probe(c *conn) {
	ctx, cancel := context.WithTimeout(s.m.ctx, s.m.probeTimeout)
	defer cancel()
	var err error
	if c.protocol >= "2026-07-28" {
		// ping is gone from the stateless revision: ask for a page of tools
		// under a cursor never used before (so the SDK's list cache cannot
		// answer); any reply, an error included, proves the server alive.
		_, err = c.session.ListTools(ctx, &sdk.ListToolsParams{Cursor: "agent-lsp-probe-" + time.Now().Format(time.RFC3339Nano)})
	} else {
		err = c.session.Ping(ctx, nil)
	}
	var rpcErr *jsonrpc.Error
	if err == nil || errors.As(err, &rpcErr) || s.m.ctx.Err() != nil {
		return
	}
	s.drop(c, fmt.Errorf("stopped answering (no reply to a liveness probe within %s after a call timed out): %w", s.m.probeTimeout, err))
}

// refreshSoon queues a reload of the server's tools, resources and prompts
// after a list_changed notification. It must not block: it is called from
// the SDK's reading goroutine.
func (s *server) refreshSoon() {
	s.mu.Lock()
	if s.closed || s.pending {
		s.mu.Unlock()
		return
	}
	s.pending = true
	s.mu.Unlock()
	s.m.goBackground(func() {
		s.mu.Lock()
		s.pending = false
		c := s.c
		s.mu.Unlock()
		if c == nil {
			return
		}
		ctx, cancel := context.WithTimeout(s.m.ctx, s.m.connectTimeout)
		defer cancel()
		if err := s.load(ctx, c); err != nil {
			s.log.Warn("refreshing MCP tools after list_changed failed", zap.Error(err))
			return
		}
		s.log.Info("MCP tools refreshed after list_changed")
	})
}

// shutdown ends the server for good and unregisters its tools.
func (s *server) shutdown() {
	s.mu.Lock()
	s.closed = true
	c := s.c
	s.c = nil
	s.state = StateDown
	if s.lastErr == "" {
		s.lastErr = "shut down"
	}
	s.mu.Unlock()
	if c != nil {
		c.shutdown()
	}
	s.unregisterAll()
}
