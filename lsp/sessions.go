package lsp

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// maxTitleRunes bounds a session title taken from its first prompt.
const maxTitleRunes = 60

// session is one conversation with its own permission grants ("allow for
// this session" means this one) and its own update numbering.
type session struct {
	id      string
	agent   *agent.Session
	created time.Time
	seq     atomic.Int64
	// sendMu makes numbering an update and writing it one step, so that
	// updates leave in seq order even when a prompt's writer and a control
	// update (agent/setMode mid-stream) send at once.
	sendMu sync.Mutex

	mu      sync.Mutex // guards the fields below
	title   string
	updated time.Time
	running map[int]context.CancelCauseFunc // prompts running or queued
	nextRun int
}

func (s *session) nextSeq() int64 { return s.seq.Add(1) }

// sendUpdate numbers an update (number sets its seq) and sends it, in
// one step.
func (s *session) sendUpdate(srv *server, number func(seq int64) any) {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	srv.notify("agent/update", number(s.nextSeq()))
}

// track registers a prompt's cancel function until untrack is called.
func (s *session) track(cancel context.CancelCauseFunc) (untrack func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextRun
	s.nextRun++
	s.running[id] = cancel
	return func() {
		s.mu.Lock()
		delete(s.running, id)
		s.mu.Unlock()
	}
}

func (s *session) cancel(cause error) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.running {
		c(cause)
	}
	return len(s.running)
}

// touch records a prompt: the first one names an untitled session.
func (s *session) touch(prompt string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.title == "" {
		s.title = shortTitle(prompt)
	}
	s.updated = now
}

func shortTitle(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > maxTitleRunes {
		return string(r[:maxTitleRunes-1]) + "…"
	}
	return line
}

// sessionStore holds the daemon's loaded sessions. Sessions stored by an
// earlier run of the daemon are loaded (resumed) on first use.
type sessionStore struct {
	s *server

	resumeMu sync.Mutex // one resume at a time: a session is never loaded twice

	mu        sync.Mutex
	byID      map[string]*session
	order     []*session // load order
	defaultID string     // the session of agent.ask
}

func newSessionStore(s *server) *sessionStore {
	return &sessionStore{s: s, byID: map[string]*session{}}
}

var errNotInitialized = errors.New("server not initialized")

// agentConfig wires a session to the editor: its tools read and edit
// through the editor, its approvals are popups (or automatic), and it is
// written to the daemon's store when there is one. It also returns the
// system prompt for a new session.
func (st *sessionStore) agentConfig() (agent.Config, string, error) {
	s := st.s
	s.mu.Lock()
	ws, docs, reg, model, cfg, sb := s.ws, s.docs, s.registry, s.model, s.settings, s.sandbox
	s.mu.Unlock()
	if ws == nil {
		return agent.Config{}, "", errNotInitialized
	}
	var approver permission.Approver = popupApprover{s: s}
	if cfg.autoApprove {
		approver = permission.AutoApprover{}
	}
	gate := permission.NewPolicy(approver)
	gate.SetAutoAllowSandboxedCommands(sb.autoAllow)
	env := &tools.Env{Workspace: ws, Docs: docs, Notes: docs.Notes}
	if sb.runner != nil {
		env.Runner = sb.runner
	}
	acfg := agent.Config{
		Provider:  model,
		Model:     cfg.model.Model,
		MaxTokens: cfg.model.MaxTokens,
		Thinking:  cfg.model.ThinkingOption(),
		Budget:    cfg.budget,
		Keep:      cfg.keep,
		Tools:     reg,
		Env:       env,
		Gate:      gate,
		Store:     s.store,
		Logger:    s.log,
		Mode:      s.control.initialMode(),
	}
	acfg.OnStoreError = s.sessionNotSaved
	return acfg, agent.SystemPrompt(ws, runtime.GOOS, shellName()), nil
}

// create starts a new session; its id is the agent session's, the one
// its file in the store is named after.
func (st *sessionStore) create(title string) (*session, error) {
	cfg, system, err := st.agentConfig()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	sess := newSession(agent.NewSession(cfg, system), strings.TrimSpace(title), now, now)
	st.add(sess)
	return sess, nil
}

func newSession(a *agent.Session, title string, created, updated time.Time) *session {
	return &session{id: a.ID(), agent: a, title: title, created: created, updated: updated,
		running: map[int]context.CancelCauseFunc{}}
}

func (st *sessionStore) add(sess *session) {
	st.mu.Lock()
	st.byID[sess.id] = sess
	st.order = append(st.order, sess)
	st.mu.Unlock()
}

func (st *sessionStore) get(id string) (*session, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sess, ok := st.byID[id]
	return sess, ok
}

// defaultSession is the session agent.ask prompts go to, made on first use.
func (st *sessionStore) defaultSession() (*session, error) {
	st.mu.Lock()
	sess, ok := st.byID[st.defaultID]
	st.mu.Unlock()
	if ok {
		return sess, nil
	}
	sess, err := st.create("")
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if cur, ok := st.byID[st.defaultID]; ok {
		sess = cur // made concurrently; the extra one stays in the list, unused
	} else {
		st.defaultID = sess.id
	}
	st.mu.Unlock()
	return sess, nil
}

func (st *sessionStore) all() []*session {
	st.mu.Lock()
	defer st.mu.Unlock()
	return append([]*session(nil), st.order...)
}

func (st *sessionStore) cancelAll() int {
	n := 0
	for _, sess := range st.all() {
		n += sess.cancel(errCancelledByClient)
	}
	return n
}
