package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// mcpState is the daemon's MCP servers: started at initialize, in the
// background, their tools mounted in the registry the sessions use, and
// stopped (every child killed) when Serve ends.
type mcpState struct {
	mu         sync.Mutex // guards the fields below
	mgr        *mcp.Manager
	configErrs []error // reported once, at initialized
	closed     bool    // Serve is ending: nothing more starts
	states     map[string]mcp.State
}

// startMCP loads the MCP configuration (.mcp.json at the first workspace
// root, initializationOptions.mcpServers, Options.MCP) and starts the
// servers without waiting for them. A bad entry is logged and reported at
// initialized; it never fails initialize nor stops the other servers.
func (s *server) startMCP(roots []string, reg *tools.Registry, initOptions json.RawMessage) {
	root := ""
	if len(roots) > 0 {
		root = roots[0]
	}
	configs, errs := mcp.LoadConfig(root, initOptions, s.opts.MCP, s.getenv)
	for _, err := range errs {
		s.log.Warn("MCP configuration", zap.Error(err))
	}
	m := &s.mcp
	m.mu.Lock()
	m.configErrs = errs
	if m.closed || len(configs) == 0 {
		m.mu.Unlock()
		return
	}
	mgr := mcp.NewManager(reg, roots, s.log.Named("mcp"))
	mgr.OnChange(s.logMCPChanges)
	m.mgr = mgr
	m.mu.Unlock()
	// Start calls the OnChange listener, which takes m.mu: not under it.
	// A closeMCP in between has closed mgr, and Start then starts nothing.
	// Start keeps only the context's values; the servers live until closeMCP.
	mgr.Start(s.ctx, configs)
}

// manager is the running MCP manager, nil when no server is configured.
func (m *mcpState) manager() *mcp.Manager {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.mgr
}

// logMCPChanges logs each server's state when it changes (ready, down,
// restarted), with its error.
func (s *server) logMCPChanges() {
	mgr := s.mcp.manager()
	if mgr == nil {
		return
	}
	statuses := mgr.Status()
	m := &s.mcp
	m.mu.Lock()
	if m.states == nil {
		m.states = map[string]mcp.State{}
	}
	var changed []mcp.ServerStatus
	for _, st := range statuses {
		if m.states[st.Name] != st.State {
			m.states[st.Name] = st.State
			changed = append(changed, st)
		}
	}
	m.mu.Unlock()
	for _, st := range changed {
		s.log.Info("MCP server", zap.String("server", st.Name), zap.String("state", string(st.State)),
			zap.String("protocol", st.ProtocolVersion), zap.Int("tools", st.Tools), zap.String("error", st.Error))
	}
}

// reportMCPConfig tells the user, once, which MCP entries were skipped.
func (s *server) reportMCPConfig() {
	s.mcp.mu.Lock()
	errs := s.mcp.configErrs
	s.mcp.mu.Unlock()
	if len(errs) == 0 {
		return
	}
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
		Message: "agent-lsp: MCP configuration: " + joinErrors(errs)})
}

func joinErrors(errs []error) string {
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

// closeMCP stops every MCP server (their process groups killed) and keeps
// any from starting later; Serve calls it on its way out.
func (s *server) closeMCP() {
	m := &s.mcp
	m.mu.Lock()
	m.closed = true
	mgr := m.mgr
	m.mu.Unlock()
	if mgr == nil {
		return
	}
	if err := mgr.Close(); err != nil {
		s.log.Warn("stopping the MCP servers", zap.Error(err))
	}
}

type mcpStatusResult struct {
	Servers []mcp.ServerStatus `json:"servers"`
	// ConfigErrors are the configuration entries that were skipped.
	ConfigErrors []string `json:"configErrors,omitempty"`
}

// mcpStatus serves agent/mcpStatus: every configured server's state.
func (s *server) mcpStatus(_ context.Context, r *request) (any, error) {
	if err := decodeParams(r.params, &struct{}{}); err != nil {
		return nil, err
	}
	res := mcpStatusResult{Servers: []mcp.ServerStatus{}}
	if mgr := s.mcp.manager(); mgr != nil {
		res.Servers = mgr.Status()
	}
	s.mcp.mu.Lock()
	for _, err := range s.mcp.configErrs {
		res.ConfigErrors = append(res.ConfigErrors, err.Error())
	}
	s.mcp.mu.Unlock()
	return res, nil
}

// mcpPrompts lists the prompts of the mounted MCP servers.
func (s *server) mcpPrompts() []mcp.PromptInfo {
	if mgr := s.mcp.manager(); mgr != nil {
		if ps := mgr.Prompts(); ps != nil {
			return ps
		}
	}
	return []mcp.PromptInfo{}
}

// toolSource is a tool's `source` in agent/tools: "mcp:<server>" or
// "builtin".
func toolSource(t tools.Tool) string {
	if server, ok := mcp.ServerOf(t); ok {
		return "mcp:" + server
	}
	return "builtin"
}
