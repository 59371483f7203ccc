package lsp

import (
	"errors"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// session is the editor's view of one controller session: its update
// numbering. What the session is (its conversation, model, mode, title,
// running prompts) is the controller's.
type session struct {
	id    string
	ctl   *control.Session
	agent *agent.Session
	seq   atomic.Int64
	// sendMu makes numbering an update and writing it one step, so that
	// updates leave in seq order even when a prompt's writer and a control
	// update (agent/setMode mid-stream) send at once.
	sendMu sync.Mutex
	lenses lensCache // the code lenses' hunks per file (codelens_cache.go)
}

func (s *session) nextSeq() int64 { return s.seq.Add(1) }

// sendUpdate numbers an update (its header's sessionId and seq) and
// sends it, in one step.
func (s *session) sendUpdate(srv *server, u payload) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	h := u.header()
	h.SessionID, h.Seq = s.id, s.nextSeq()
	srv.notifyUpdate(u)
}

// sendText numbers and sends a text update of kind k (text or
// reasoning), building its frame in f (update_frame.go): the delta path,
// taken by a listener's writer, which owns f.
func (s *session) sendText(srv *server, k, text string, f *updateFrame) {
	if srv.frames == nil {
		s.sendUpdate(srv, &textUpdate{updateHeader: kind(k), textBody: textBody{Text: text}})
		return
	}
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	frame, err := f.build(k, text, func(h *updateHeader) { h.SessionID, h.Seq = s.id, s.nextSeq() })
	if err == nil {
		err = srv.frames.writeWholeFrame(frame)
	}
	if err != nil && !isClosed(err) {
		srv.log.Warn("notification not sent", zap.String("method", "agent/update"), zap.Error(err))
	}
}

// sessionStore maps the controller's sessions to their views, and keeps
// the session agent.ask prompts go to.
type sessionStore struct {
	s *server

	mu        sync.Mutex
	views     map[string]*session
	defaultID string // the session of agent.ask
}

func newSessionStore(s *server) *sessionStore {
	return &sessionStore{s: s, views: map[string]*session{}}
}

var errNotInitialized = errors.New("server not initialized")

// view is the view of session id, made on first use: a resumed session
// may send an update (its model could not be restored) before Open returns.
func (st *sessionStore) view(id string) *session {
	st.mu.Lock()
	defer st.mu.Unlock()
	v, ok := st.views[id]
	if !ok {
		v = &session{id: id}
		st.views[id] = v
	}
	return v
}

// viewOf is cs's view. Its ctl and agent are set once, under st.mu, and
// every caller gets the view through here: they read them without a lock.
func (st *sessionStore) viewOf(cs *control.Session) *session {
	v := st.view(cs.ID())
	st.mu.Lock()
	if v.ctl != cs {
		v.ctl, v.agent = cs, cs.Agent()
	}
	st.mu.Unlock()
	return v
}

// binding wires a session to the editor: its tools read and edit through
// the editor, its approvals are popups (or automatic), its commands run in
// the daemon's sandbox, its MCP prompts are the daemon's servers'.
func (st *sessionStore) binding() (*control.Controller, control.Binding, error) {
	s := st.s
	s.mu.Lock()
	ctl, ws, docs, reg, cfg, sb, subagents := s.ctl, s.ws, s.docs, s.registry, s.settings, s.sandbox, s.subagents
	s.mu.Unlock()
	if ctl == nil || ws == nil {
		return nil, control.Binding{}, errNotInitialized
	}
	var approver permission.Approver = editorApprover{s: s, ws: ws}
	if cfg.autoApprove {
		approver = permission.AutoApprover{}
	}
	autoAllowSandboxed := sb.autoAllow
	if cfg.restricted {
		approver, autoAllowSandboxed = restrictedApprover(), false
	}
	b := control.Binding{Workspace: ws, Docs: docs, Notes: docs.Notes, Approver: approver,
		AutoAllowSandboxed: autoAllowSandboxed, Tools: reg, Prompts: mcpPromptSource{s: s}, Notify: s.sendControl,
		Subagents: subagents}
	if sb.runner != nil {
		b.Runner = sb.runner
	}
	if !cfg.restricted { // a folder not trusted runs no hook of its own, nor the user's there
		// Our runner, never the editor's: a hook reads its JSON on stdin.
		runner := sb.runner
		if runner == nil {
			runner = tools.NewProcessRunner(nil)
		}
		if r := world.Hooks(cfg.hooks, ws, runner, ctl.RuleFiles(), func(msg string) { s.warnUser("agent-lsp: " + msg) }, s.log); r != nil {
			b.Hooks = r
			if msg := r.Untrusted(); msg != "" {
				s.hooksNoticeOnce.Do(func() { s.warnUser("agent-lsp: " + msg) })
			}
		}
	}
	return ctl, b, nil
}

// create starts a new session.
func (st *sessionStore) create(title string) (*session, error) {
	ctl, b, err := st.binding()
	if err != nil {
		return nil, err
	}
	cs, err := ctl.NewSession(b, title)
	if err != nil {
		return nil, controlError(err, "")
	}
	return st.viewOf(cs), nil
}

// lookup returns a loaded session, or resumes a stored one: after a
// restart, a prompt for a session of the earlier run continues it.
func (st *sessionStore) lookup(id string) (*session, error) {
	ctl, b, err := st.binding()
	if err != nil {
		return nil, err
	}
	cs, err := ctl.Open(id, b)
	if err != nil {
		return nil, controlError(err, id)
	}
	return st.viewOf(cs), nil
}

func (st *sessionStore) controller() *control.Controller {
	st.s.mu.Lock()
	defer st.s.mu.Unlock()
	return st.s.ctl
}

// get returns a loaded session.
func (st *sessionStore) get(id string) (*session, bool) {
	ctl := st.controller()
	if ctl == nil {
		return nil, false
	}
	cs, ok := ctl.Get(id)
	if !ok {
		return nil, false
	}
	return st.viewOf(cs), true
}

// known reports whether id is a loaded or a stored session.
func (st *sessionStore) known(id string) bool {
	ctl := st.controller()
	return ctl != nil && ctl.Known(id)
}

// defaultSession is the session agent.ask prompts go to, made on first use.
func (st *sessionStore) defaultSession() (*session, error) {
	st.mu.Lock()
	id := st.defaultID
	st.mu.Unlock()
	if sess, ok := st.get(id); ok {
		return sess, nil
	}
	sess, err := st.create("")
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if cur, ok := st.views[st.defaultID]; ok && cur.ctl != nil {
		return cur, nil // made concurrently; the extra one stays in the list, unused
	}
	st.defaultID = sess.id
	return sess, nil
}

// all is every loaded session, in load order.
func (st *sessionStore) all() []*session {
	ctl := st.controller()
	if ctl == nil {
		return nil
	}
	var out []*session
	for _, cs := range ctl.Loaded() {
		out = append(out, st.viewOf(cs))
	}
	return out
}

func (st *sessionStore) cancelAll() int {
	ctl := st.controller()
	if ctl == nil {
		return 0
	}
	return ctl.CancelAll(errCancelledByClient)
}

// list is every session, loaded or stored, most recently updated first.
func (st *sessionStore) list() []sessionInfo {
	out := []sessionInfo{}
	ctl := st.controller()
	if ctl == nil {
		return out
	}
	for _, info := range ctl.List() {
		out = append(out, sessionInfo{SessionID: info.ID, Title: info.Title,
			CreatedAt: info.Created.UTC(), UpdatedAt: info.Updated.UTC(), Worktree: worktreeOf(info.Worktree)})
	}
	return out
}
