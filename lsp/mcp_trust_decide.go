package lsp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
)

// decideTrust applies a decision about the workspace entry name: allow
// and always start it (always also stores it), deny stops it if it runs
// and forgets a stored "always". hash, when given, must be the entry's
// (what the user saw is what is trusted).
func (s *server) decideTrust(name, hash string, d mcp.TrustDecision, denyReason string) error {
	w := &s.mcp.trust
	w.decideMu.Lock()
	defer w.decideMu.Unlock()
	w.mu.Lock()
	te, ok := w.entries[name]
	store := w.store
	var entry mcp.WorkspaceEntry
	if ok {
		entry = te.entry
	}
	w.mu.Unlock()
	if !ok {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: no workspace MCP entry %q (agent/mcpStatus lists them)", name)
	}
	if hash != "" && hash != entry.Hash {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: server %q has hash %s, not %s: the entry is not the one you saw", name, entry.Hash, hash)
	}
	mgr := s.mcp.manager()
	set := func(trust, reason string) {
		w.mu.Lock()
		te.trust, te.reason, te.decided = trust, reason, true
		w.mu.Unlock()
	}

	if d == mcp.TrustDeny {
		set(trustUntrusted, denyReason)
		var errs []error
		if store != nil {
			if err := store.Forget(entry.Root, name); err != nil {
				errs = append(errs, err)
			}
		}
		if mgr != nil {
			_ = mgr.Stop(name) // not running is fine
		}
		s.log.Info("MCP workspace entry denied", zap.String("server", name))
		return joinedErr(errs)
	}

	running := false
	if mgr != nil {
		for _, st := range mgr.Status() {
			running = running || st.Name == name
		}
	}
	// What starts must be what the user was asked about: a workspace file
	// the entry runs that changed since it was shown (written while the
	// popup was open, or before a late agent/mcpTrust) is asked about again.
	if fresh, changes := entry.Rebind(); len(changes) > 0 && !running {
		what := permission.VisibleLine(strings.Join(changes, "; "), 0)
		w.mu.Lock()
		te.entry = fresh.WithChanges(changes)
		te.trust, te.reason, te.decided = trustUntrusted, "from the workspace's .mcp.json: "+what+": not started; allow it again with agent/mcpTrust", true
		w.mu.Unlock()
		s.warnUser("agent-lsp: MCP server " + permission.VisibleLine(name, 0) + " not started: " + what)
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: server %q not started: %s (agent/mcpStatus shows it as it is now)", name, what)
	}

	w.mu.Lock()
	was := te.trust
	w.mu.Unlock()
	trust := trustOnce
	if d == mcp.TrustAllow && was == trustAlways {
		trust = trustAlways // already remembered: allowing again changes nothing
	}
	if d == mcp.TrustAlways {
		trust = trustAlways
		if store == nil {
			s.warnUser("agent-lsp: no state directory: MCP server " + name + " is allowed for this run only")
			trust = trustOnce
		} else if err := store.Remember(entry, time.Now()); err != nil {
			s.warnUser(fmt.Sprintf("agent-lsp: MCP server %s is allowed for this run only: %v", name, err))
			trust = trustOnce
		}
	}
	set(trust, "")
	s.log.Info("MCP workspace entry trusted", zap.String("server", name), zap.String("trust", trust), zap.String("hash", entry.Hash))
	if mgr == nil {
		return nil // Serve is ending
	}
	for _, st := range mgr.Status() {
		if st.Name == name {
			return nil // already running (trusted before): nothing to start
		}
	}
	cfg, err := entry.Config(s.mcpGetenv())
	if err != nil {
		s.mcp.mu.Lock()
		s.mcp.configErrs = append(s.mcp.configErrs, err)
		s.mcp.mu.Unlock()
		s.warnUser("agent-lsp: MCP configuration: " + err.Error())
		return nil
	}
	mgr.Start(s.ctx, []mcp.ServerConfig{cfg})
	return nil
}

func (s *server) warnUser(msg string) {
	s.log.Warn(msg)
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
}

func joinedErr(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", joinErrors(errs))
}

// mcpTrustParams is agent/mcpTrust.
type mcpTrustParams struct {
	Server   string `json:"server"`
	Decision string `json:"decision"`       // allow, always or deny
	Hash     string `json:"hash,omitempty"` // optional: the hash agent/mcpStatus showed
}

// mcpTrust serves agent/mcpTrust: the user's decision about a workspace
// entry, at any time (an entry denied or never answered is started by
// allow; deny withdraws a trusted one).
func (s *server) mcpTrust(_ context.Context, p mcpTrustParams) (mcpStatusResult, error) {
	d, err := mcp.ParseTrustDecision(p.Decision)
	if err != nil {
		return mcpStatusResult{}, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	if err := s.decideTrust(p.Server, p.Hash, d, "denied with agent/mcpTrust"); err != nil {
		return mcpStatusResult{}, err
	}
	return s.mcpStatus(context.Background(), noParams{})
}
