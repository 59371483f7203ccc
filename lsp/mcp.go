package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// mcpState is the daemon's MCP servers: started at initialize, in the
// background, their tools mounted in the registry the sessions use, and
// stopped (every child killed) when Serve ends. The workspace's .mcp.json
// entries start only once trusted (mcp_trust.go).
type mcpState struct {
	mu         sync.Mutex // guards the fields below
	mgr        *mcp.Manager
	configErrs []error // reported once, at initialized
	closed     bool    // Serve is ending: nothing more starts
	states     map[string]mcp.State
	sources    map[string]string // server name → where its entry came from
	trust      workspaceTrust    // the workspace's entries and the decisions about them
}

// startMCP loads the MCP configuration (.mcp.json at the first workspace
// root, editorServers: initializationOptions.mcpServers, Options.MCP) and starts, without
// waiting for them, the user's servers and the workspace's that were
// trusted always; the other workspace entries wait for the user
// (askMCPTrust, after initialized). A bad entry is logged and reported at
// initialized; it never fails initialize nor stops the other servers.
func (s *server) startMCP(roots []string, reg *tools.Registry, editorServers json.RawMessage) {
	root := ""
	if len(roots) > 0 {
		root = roots[0]
	}
	loaded := mcp.LoadConfig(root, editorServers, s.opts.MCP, s.mcpGetenv())
	if s.isRestricted() {
		loaded = withoutWorkspaceMCP(loaded, root)
	}
	configs := loaded.Servers
	sources := map[string]string{}
	for _, c := range configs {
		sources[c.Name] = c.Source
	}
	trusted, errs := s.mcp.trust.load(s, loaded.Workspace)
	for _, c := range trusted {
		sources[c.Name] = c.Source
	}
	configs = append(configs, trusted...)
	errs = append(loaded.Errors, errs...)
	for _, err := range errs {
		s.log.Warn("MCP configuration", zap.Error(err))
	}
	m := &s.mcp
	m.mu.Lock()
	m.configErrs = errs
	m.sources = sources
	if m.closed || (len(configs) == 0 && len(loaded.Workspace) == 0) {
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

// mcpGetenv is where ${VAR}s are expanded from: the injected environment,
// else the vault-aware one (a variable hidden from children is still read).
func (s *server) mcpGetenv() func(string) string {
	if s.opts.Getenv != nil {
		return s.opts.Getenv
	}
	return tools.Getenv
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
	Servers []mcpServerStatus `json:"servers"`
	// ConfigErrors are the configuration entries that were skipped.
	ConfigErrors []string `json:"configErrors,omitempty"`
}

// mcpServerStatus is one server's state with where its entry came from
// and, for a workspace entry, the trust decision (mcp_trust.go).
type mcpServerStatus struct {
	mcp.ServerStatus
	Source string `json:"source,omitempty"`
	// Trust is "user" (the user's configuration), "always" or "once" (a
	// workspace entry the user trusted), or "untrusted".
	Trust string `json:"trust,omitempty"`
	// For an untrusted entry: why, what it would run or reach (as
	// written), the variables it would receive and its hash.
	Reason    string   `json:"reason,omitempty"`
	Target    string   `json:"target,omitempty"`
	Variables []string `json:"variables,omitempty"`
	Hash      string   `json:"hash,omitempty"`
}

// mcpStatus serves agent/mcpStatus: every configured server's state, the
// untrusted workspace entries among them.
func (s *server) mcpStatus(context.Context, noParams) (mcpStatusResult, error) {
	res := mcpStatusResult{Servers: []mcpServerStatus{}}
	var running []mcp.ServerStatus
	if mgr := s.mcp.manager(); mgr != nil {
		running = mgr.Status()
	}
	s.mcp.mu.Lock()
	for _, err := range s.mcp.configErrs {
		res.ConfigErrors = append(res.ConfigErrors, err.Error())
	}
	sources := s.mcp.sources
	s.mcp.mu.Unlock()
	workspace := s.mcp.trust.statuses()
	for _, st := range running {
		out := mcpServerStatus{ServerStatus: st, Source: sources[st.Name], Trust: "user"}
		if w, ok := workspace[st.Name]; ok {
			out.Source, out.Trust = w.Source, w.Trust
			delete(workspace, st.Name)
		}
		res.Servers = append(res.Servers, out)
	}
	for _, w := range workspace {
		if w.Trust == trustUntrusted {
			res.Servers = append(res.Servers, w)
		}
	}
	sort.Slice(res.Servers, func(i, j int) bool { return res.Servers[i].Name < res.Servers[j].Name })
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
