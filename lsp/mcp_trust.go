package lsp

import (
	"context"
	"sort"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/mcp"
)

// The answers of the workspace-trust popup, exactly as the contract names
// them.
const (
	trustActionAllow  = "Allow"
	trustActionAlways = "Allow always for this workspace"
	trustActionDeny   = "Deny"
)

// Values of mcpServerStatus.Trust for workspace entries.
const (
	trustUntrusted = "untrusted"
	trustOnce      = "once"
	trustAlways    = "always"
)

// workspaceTrust holds the workspace's .mcp.json entries and the user's
// decisions about them for this run. An entry is started only once
// trusted: "always" (the TrustStore, across runs, for this very content)
// or "once" (this run). Until then nothing of it was expanded.
type workspaceTrust struct {
	decideMu sync.Mutex // one decision at a time: store, start, stop
	mu       sync.Mutex // guards the fields below
	store    *mcp.TrustStore
	entries  map[string]*trustEntry // by server name
}

type trustEntry struct {
	entry   mcp.WorkspaceEntry
	trust   string // trustUntrusted, trustOnce or trustAlways
	asking  bool   // a popup about it is open
	decided bool   // the user answered (popup or agent/mcpTrust)
	reason  string // why untrusted
}

// reasonNotAsked is the reason of an entry nobody was asked about yet.
const reasonNotAsked = "from the workspace's .mcp.json: not started until you allow it (agent/mcpTrust, or the popup)"

// load takes the workspace's entries and returns the configurations of
// those trusted always (expanded now), with the errors to report: a store
// that cannot be read (nothing trusted then), an entry that does not
// expand.
func (w *workspaceTrust) load(s *server, entries []mcp.WorkspaceEntry) ([]mcp.ServerConfig, []error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.store = s.trustStore()
	w.entries = map[string]*trustEntry{}
	var trusted []mcp.ServerConfig
	var errs []error
	storeWarned := false
	for _, e := range entries {
		te := &trustEntry{entry: e, trust: trustUntrusted, reason: reasonNotAsked}
		w.entries[e.Name] = te
		if w.store == nil {
			continue
		}
		verdict, err := w.store.Check(e)
		if err != nil && !storeWarned {
			storeWarned = true
			errs = append(errs, err)
		}
		if !verdict.Trusted {
			te.entry = e.WithChanges(verdict.Changes) // the popup says what changed
			continue
		}
		cfg, err := e.Config(s.mcpGetenv())
		te.trust, te.reason, te.decided = trustAlways, "", true
		if err != nil {
			errs = append(errs, err)
			continue
		}
		trusted = append(trusted, cfg)
		s.log.Info("MCP workspace entry trusted always", zap.String("server", e.Name), zap.String("hash", e.Hash))
	}
	return trusted, errs
}

// trustStore is the store of "always" decisions beside the sessions; nil
// when there is no state directory (then "always" lasts this run).
func (s *server) trustStore() *mcp.TrustStore {
	dir := s.opts.StateDir
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			s.log.Warn("workspace trust decisions cannot be stored: no state directory", zap.Error(err))
			return nil
		}
		dir = d
	}
	return mcp.NewTrustStore(dir)
}

// statuses describes every workspace entry by name, for agent/mcpStatus.
func (w *workspaceTrust) statuses() map[string]mcpServerStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]mcpServerStatus, len(w.entries))
	for name, te := range w.entries {
		st := mcpServerStatus{ServerStatus: mcp.ServerStatus{Name: name, State: mcp.StateUntrusted},
			Source: te.entry.Source, Trust: te.trust}
		if te.trust == trustUntrusted {
			st.Reason = te.reason
			if te.asking {
				st.Reason = "from the workspace's .mcp.json: waiting for your answer to the popup"
			}
			st.Target, st.Variables, st.Hash = te.entry.Target(), te.entry.Variables, te.entry.Hash
		}
		out[name] = st
	}
	return out
}

// askMCPTrust asks, after initialized and in the background, about every
// untrusted workspace entry, one popup at a time. It ends with Serve's
// context: an unanswered popup is then Deny.
func (s *server) askMCPTrust() {
	w := &s.mcp.trust
	w.mu.Lock()
	var names []string
	for name, te := range w.entries {
		if te.trust == trustUntrusted {
			names = append(names, name)
		}
	}
	w.mu.Unlock()
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	s.tasks.Add(1)
	go func() {
		defer s.tasks.Done()
		for _, name := range names {
			if s.ctx.Err() != nil {
				return
			}
			s.askTrust(s.ctx, name)
		}
	}()
}

// askTrust puts one entry to the user. An answer counts only while the
// entry is still undecided: agent/mcpTrust may have decided meanwhile.
func (s *server) askTrust(ctx context.Context, name string) {
	w := &s.mcp.trust
	w.mu.Lock()
	te, ok := w.entries[name]
	if !ok || te.decided {
		w.mu.Unlock()
		return
	}
	te.asking = true
	entry := te.entry
	w.mu.Unlock()

	params := protocol.ShowMessageRequestParams{
		Type:    protocol.MessageTypeWarning,
		Message: "agent-lsp: " + entry.Describe() + "\nStart it?",
		Actions: []protocol.MessageActionItem{{Title: trustActionAllow}, {Title: trustActionAlways}, {Title: trustActionDeny}},
	}
	var answer *protocol.MessageActionItem
	decision, reason := mcp.TrustDeny, "denied at the popup"
	if _, err := s.conn.Call(ctx, "window/showMessageRequest", params, &answer); err != nil {
		reason = "the popup was not answered (" + err.Error() + ")"
		s.log.Info("workspace trust popup failed; denying", zap.String("server", name), zap.Error(err))
	} else if answer == nil {
		reason = "the popup was dismissed"
	} else {
		switch answer.Title {
		case trustActionAllow:
			decision = mcp.TrustAllow
		case trustActionAlways:
			decision = mcp.TrustAlways
		}
	}
	w.mu.Lock()
	te.asking = false
	decided := te.decided
	w.mu.Unlock()
	if decided {
		return
	}
	if err := s.decideTrust(name, "", decision, reason+"; allow it later with agent/mcpTrust"); err != nil {
		s.log.Warn("workspace trust decision", zap.String("server", name), zap.Error(err))
	}
}
