package lsp

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
)

// openStore opens the session store in dir (default: the user's state
// directory). A daemon that cannot store sessions still serves: it keeps
// them in memory and returns why, for the editor to be told once.
func openStore(dir string, log *zap.Logger) (*agent.Store, error) {
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			log.Warn("sessions are kept in memory only: no state directory", zap.Error(err))
			return nil, err
		}
		dir = d
	}
	st, err := agent.NewStore(dir, log)
	if err != nil {
		log.Warn("sessions are kept in memory only", zap.String("dir", dir), zap.Error(err))
		return nil, err
	}
	log.Info("sessions are stored", zap.String("dir", st.Dir()))
	return st, nil
}

// reportStoreUnusable tells the user, once, that sessions will not survive
// a restart because the state directory cannot be used.
func (s *server) reportStoreUnusable() {
	if s.storeErr == nil {
		return
	}
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
		Message: "agent-lsp: sessions are not saved and will not survive a restart: " + s.storeErr.Error()})
}

// sessionNotSaved is a session's Config.OnStoreError: the session's file
// could not be written (the disk is full, the file was replaced), and the
// session goes on in memory. The agent calls it once per session.
func (s *server) sessionNotSaved(err error) {
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
		Message: "agent-lsp: this session is no longer saved and goes on in memory only: " + err.Error()})
}

// unknownSession is the answer for an id that is neither loaded nor stored.
func unknownSession(id string) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown session %q", id)
}

// lookup returns a loaded session, or resumes a stored one: after a
// restart, a prompt for a session of the earlier run continues it.
func (st *sessionStore) lookup(id string) (*session, error) {
	if sess, ok := st.get(id); ok {
		return sess, nil
	}
	store := st.s.store
	if store == nil || id == "" {
		return nil, unknownSession(id)
	}
	st.resumeMu.Lock()
	defer st.resumeMu.Unlock()
	if sess, ok := st.get(id); ok { // resumed while this one waited
		return sess, nil
	}
	info, ok := st.stored(id)
	if !ok {
		return nil, unknownSession(id)
	}
	cfg, _, err := st.agentConfig()
	if err != nil {
		return nil, err
	}
	a, err := agent.ResumeSession(cfg, id)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: session %q cannot be resumed: %v", id, err)
	}
	created := info.CreatedAt
	if created.IsZero() {
		created = info.UpdatedAt
	}
	sess := newSession(a, info.Title, created, info.UpdatedAt)
	st.s.restoreModel(sess) // before any request can reach it
	st.add(sess)
	st.s.log.Info("session resumed", zap.String("session", id), zap.Int("messages", len(a.History())))
	return sess, nil
}

// stored finds a session in the store. Ids come from the editor; only the
// store's own listing names files, so an id never becomes a path here.
func (st *sessionStore) stored(id string) (agent.SessionInfo, bool) {
	for _, info := range st.storedSessions() {
		if info.ID == id {
			return info, true
		}
	}
	return agent.SessionInfo{}, false
}

func (st *sessionStore) storedSessions() []agent.SessionInfo {
	if st.s.store == nil {
		return nil
	}
	infos, err := st.s.store.List()
	if err != nil {
		st.s.log.Warn("listing stored sessions", zap.Error(err))
		return nil
	}
	return infos
}

// known reports whether id is a loaded or a stored session.
func (st *sessionStore) known(id string) bool {
	if _, ok := st.get(id); ok {
		return true
	}
	_, ok := st.stored(id)
	return ok
}

// list is every session, loaded or stored, once each (a loaded session's
// live title and times win), most recently updated first.
func (st *sessionStore) list() []sessionInfo {
	out := []sessionInfo{}
	seen := map[string]bool{}
	for _, sess := range st.all() {
		sess.mu.Lock()
		out = append(out, sessionInfo{SessionID: sess.id, Title: sess.title,
			CreatedAt: sess.created.UTC(), UpdatedAt: sess.updated.UTC()})
		sess.mu.Unlock()
		seen[sess.id] = true
	}
	for _, info := range st.storedSessions() {
		if seen[info.ID] {
			continue
		}
		created := info.CreatedAt
		if created.IsZero() {
			created = info.UpdatedAt
		}
		out = append(out, sessionInfo{SessionID: info.ID, Title: info.Title,
			CreatedAt: created.UTC(), UpdatedAt: info.UpdatedAt.UTC()})
	}
	slices.SortStableFunc(out, func(a, b sessionInfo) int {
		return cmp.Or(b.UpdatedAt.Compare(a.UpdatedAt), b.CreatedAt.Compare(a.CreatedAt),
			strings.Compare(b.SessionID, a.SessionID))
	})
	return out
}

// touchUpdated marks a session as changed without naming it.
func (s *session) touchUpdated(now time.Time) {
	s.mu.Lock()
	s.updated = now
	s.mu.Unlock()
}
