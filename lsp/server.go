package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/tools"
)

// lifecycle is where the LSP conversation stands.
type lifecycle int

const (
	stateNew lifecycle = iota
	stateInitialized
	stateShutdown
)

// errRequestCancelled is the LSP RequestCancelled error (-32800).
var errRequestCancelled = jsonrpc2.NewError(-32800, "request cancelled")

// server is one LSP conversation.
type server struct {
	ctx  context.Context // ends at exit, end of input or Serve's ctx
	conn jsonrpc2.Conn
	// frames writes agent/update notifications without the connection's
	// second marshal (stream_notify.go); nil like deferred.
	frames *stream
	// deferred are replies' results the stream writes in pieces (nil in
	// tests that build a server without a stream: results marshal whole).
	deferred *deferredResults
	opts     Options
	log      *zap.Logger
	getenv   func(string) string
	tasks    sync.WaitGroup // goroutines answering long requests

	exited   chan struct{} // closed by the exit notification
	exitOnce sync.Once
	// hooksNoticeOnce: the workspace's untrusted hooks are told once a run.
	hooksNoticeOnce sync.Once

	mu       sync.Mutex // guards the fields below
	state    lifecycle
	client   clientCaps
	settings settings
	ws       *tools.Workspace
	modelErr error // why there is no model, reported by every prompt

	inflight        *inflight
	progressCancels sync.Map // progress token (raw JSON) → context.CancelCauseFunc
	overlays        *overlays
	docs            *editorDocuments
	registry        *tools.Registry
	subagents       *control.SubagentCatalog // the custom subagents, made at initialize (subagents.go)
	sessions        *sessionStore
	store           *agent.Store        // nil: sessions live in memory only
	storeErr        error               // why store is nil, shown at initialized
	mcp             mcpState            // the MCP servers (own lock)
	ctl             *control.Controller // the sessions, made at initialize
	sandbox         sandboxState        // the command sandbox (sandbox.go)
	worktrees       worktreeBoxes       // the worktree sessions' sandboxes (own lock; worktree_bind.go)

	// release gives a large document's garbage back to the system once
	// its text synchronisation pauses (documents_release.go).
	release idleRelease

	// progressTokens numbers the progress tokens this conversation
	// creates: a token need only be unique within its connection.
	progressTokens atomic.Int64
}

func newServer(ctx context.Context, conn jsonrpc2.Conn, opts Options) *server {
	s := &server{
		ctx:      ctx,
		conn:     conn,
		opts:     opts,
		log:      opts.Logger,
		getenv:   opts.Getenv,
		exited:   make(chan struct{}),
		inflight: newInflight(),
		overlays: newOverlays(),
	}
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	s.store, s.storeErr = openStore(opts.StateDir, s.log)
	s.sessions = newSessionStore(s)
	return s
}

func (s *server) exitCode() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateShutdown {
		return 0
	}
	return 1
}

// request is one incoming call or notification.
type request struct {
	method string
	params json.RawMessage
	call   bool
	id     jsonrpc2.ID
	reply  jsonrpc2.Replier
}

// handle is the jsonrpc2 handler. It runs on the read loop, so it never
// blocks: quick methods are answered inline (which also keeps text
// synchronisation in order), long ones on their own goroutine. It always
// returns nil: an error would make jsonrpc2 close the connection.
func (s *server) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	r := &request{method: req.Method(), params: json.RawMessage(req.Params()), reply: reply}
	if c, ok := req.(*jsonrpc2.Call); ok {
		r.call, r.id = true, c.ID()
	}
	if t, ok := req.(*textNotification); ok {
		ctx = withFrameTexts(ctx, t.texts)
	}
	rt, known := routes[r.method]
	if err := s.admit(r, known); err != nil {
		s.answer(r, nil, err)
		return nil
	}
	if !known {
		if r.call {
			s.answer(r, nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", r.method))
		} else {
			s.log.Debug("ignoring notification", zap.String("method", r.method))
		}
		return nil
	}
	if rt.async && r.call {
		s.startAsync(r, rt)
		return nil
	}
	res, err := s.protect(ctx, rt, r)
	s.answer(r, res, err)
	return nil
}

// admit applies the lifecycle: before initialize only initialize and exit
// are served (calls get -32002, notifications are dropped); after shutdown
// only exit.
func (s *server) admit(r *request, known bool) error {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case r.method == "exit":
		return nil
	case state == stateNew && r.method != "initialize":
		return jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "server not initialized: %s before initialize", r.method)
	case state != stateNew && r.method == "initialize":
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "initialize was already sent")
	case state == stateShutdown:
		return jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "server is shut down: %s after shutdown", r.method)
	}
	return nil
}

// answer replies to a call, or logs a notification's error. The reply uses
// a context that is never cancelled: a cancelled request still gets its
// answer (the stream refuses writes only once the client is gone).
func (s *server) answer(r *request, result any, err error) {
	if !r.call {
		if err != nil {
			s.log.Warn("notification failed", zap.String("method", r.method), zap.Error(err))
		}
		return
	}
	if err != nil {
		result = nil
		s.log.Debug("request failed", zap.String("method", r.method), zap.Error(err))
	}
	if pw, ok := result.(piecewiseResult); ok && err == nil && s.deferred != nil {
		s.deferred.put(r.id, pw)
		defer s.deferred.forget(r.id) // when the reply was never written
		result = nil
	}
	if werr := r.reply(context.WithoutCancel(s.ctx), result, err); werr != nil && !errors.Is(werr, errWriterStopped) {
		s.log.Warn("writing a reply failed", zap.String("method", r.method), zap.Error(werr))
	}
}

// startAsync serves a long call on its own goroutine, cancellable by
// $/cancelRequest until it has answered.
func (s *server) startAsync(r *request, rt route) {
	ctx, cancel := context.WithCancelCause(s.ctx)
	s.inflight.add(r.id, cancel)
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		defer cancel(nil)
		res, err := s.protect(ctx, rt, r)
		s.inflight.remove(r.id)
		s.answer(r, res, err)
	}()
}

// protect runs a route, turning a panic into an internal error.
func (s *server) protect(ctx context.Context, rt route, r *request) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("handler panicked", zap.String("method", r.method), zap.Any("panic", p),
				zap.ByteString("stack", debug.Stack()))
			res, err = nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", r.method, p)
		}
	}()
	return rt.serve(s, ctx, r.params)
}

// inflight maps the ids of running async calls to their cancel functions.
type inflight struct {
	mu     sync.Mutex
	cancel map[jsonrpc2.ID]context.CancelCauseFunc
}

func newInflight() *inflight {
	return &inflight{cancel: map[jsonrpc2.ID]context.CancelCauseFunc{}}
}

func (f *inflight) add(id jsonrpc2.ID, c context.CancelCauseFunc) {
	f.mu.Lock()
	f.cancel[id] = c
	f.mu.Unlock()
}

func (f *inflight) remove(id jsonrpc2.ID) {
	f.mu.Lock()
	delete(f.cancel, id)
	f.mu.Unlock()
}

func (f *inflight) cancelID(id jsonrpc2.ID, cause error) bool {
	f.mu.Lock()
	c, ok := f.cancel[id]
	f.mu.Unlock()
	if ok {
		c(cause)
	}
	return ok
}

// errCancelledByClient is the cause of a prompt cancelled by the editor.
var errCancelledByClient = errors.New("cancelled by the client")

// cancelRequest handles $/cancelRequest (its params: protocol_fixes.go).
func (s *server) cancelRequest(_ context.Context, p cancelRequestParams) (noResult, error) {
	var id jsonrpc2.ID
	if err := json.Unmarshal(p.ID, &id); err != nil || !validID(p.ID) {
		return noResult{}, fmt.Errorf("$/cancelRequest: bad id %s", p.ID)
	}
	if !s.inflight.cancelID(id, errCancelledByClient) {
		s.log.Debug("$/cancelRequest for a request not running", zap.String("id", string(p.ID)))
	}
	return noResult{}, nil
}
