package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// PromptInfo is one prompt a server offers; the type is tools' so that
// the agent's session controller, which imports no MCP, runs it as a
// slash command.
type PromptInfo = tools.PromptInfo

// PromptArgument is one argument of a prompt.
type PromptArgument = tools.PromptArgument

// maxToolsPerServer bounds what one server may mount: a runaway list must
// not flood the model's tool list (every tool costs prompt tokens).
const maxToolsPerServer = 200

// load lists the server's tools (and whether it has resources, and its
// prompts) over c and brings the registry in line with them.
func (s *server) load(ctx context.Context, c *conn) error {
	var defs []*sdk.Tool
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return err
		}
		if len(defs) == maxToolsPerServer {
			s.log.Warn("MCP server offers too many tools; the rest are not mounted", zap.Int("limit", maxToolsPerServer))
			break
		}
		defs = append(defs, t)
	}
	caps := &sdk.ServerCapabilities{}
	if res := c.session.InitializeResult(); res != nil && res.Capabilities != nil {
		caps = res.Capabilities
	}
	var prompts []PromptInfo
	if caps.Prompts != nil {
		for p, err := range c.session.Prompts(ctx, nil) {
			if err != nil { // prompts are a nicety: their failure does not stop the tools
				s.log.Warn("listing MCP prompts failed", zap.Error(err))
				break
			}
			prompts = append(prompts, promptInfo(s.cfg.Name, p))
		}
	}
	s.mount(c, defs, caps.Resources != nil, prompts)
	return nil
}

func promptInfo(server string, p *sdk.Prompt) PromptInfo {
	info := PromptInfo{Server: server, Name: p.Name, Title: p.Title, Description: p.Description}
	for _, a := range p.Arguments {
		info.Arguments = append(info.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
	}
	return info
}

// mount makes the registry hold exactly this server's current tools. A tool
// whose definition did not change keeps its place (the tool list is part of
// the prompt cache key); changed ones are replaced, gone ones removed.
func (s *server) mount(c *conn, defs []*sdk.Tool, hasResources bool, prompts []PromptInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.c != c {
		return // a stale refresh of a connection that is gone
	}
	s.prompts = prompts
	ours := func(name string) bool { _, ok := s.adapters[name]; return ok }
	taken := func(name string) bool {
		_, inReg := s.m.reg.Lookup(name)
		return inReg && !ours(name)
	}

	want := map[string]*toolAdapter{}
	var order []string
	if hasResources {
		// Ours first: a server tool that happens to be called list_resources
		// is the one that yields (it gets a hash suffix).
		for _, a := range newResourceTools(s, fitName("mcp__"+s.prefix+"__"+listResourcesTool, s.prefix), fitName("mcp__"+s.prefix+"__"+readResourceTool, s.prefix)) {
			if taken(a.exposed) {
				s.log.Warn("tool name already registered by another tool; not mounted", zap.String("tool", a.exposed))
				continue
			}
			want[a.exposed] = a
			order = append(order, a.exposed)
		}
	}
	names := make([]string, 0, len(defs))
	byName := map[string]*sdk.Tool{}
	for _, d := range defs {
		if _, dup := byName[d.Name]; dup {
			continue
		}
		byName[d.Name] = d
		names = append(names, d.Name)
	}
	exposed := exposedNames(s.prefix, names, func(n string) bool { return taken(n) || want[n] != nil })
	for _, d := range defs {
		if byName[d.Name] != d {
			continue
		}
		a := newToolAdapter(s, exposed[d.Name], d)
		want[a.exposed] = a
		order = append(order, a.exposed)
	}

	changed := false
	for name, old := range s.adapters {
		if n := want[name]; n == nil || n.fingerprint != old.fingerprint {
			s.m.reg.Remove(name)
			delete(s.adapters, name)
			changed = true
		}
	}
	if s.adapters == nil {
		s.adapters = map[string]*toolAdapter{}
	}
	for _, name := range order {
		if _, kept := s.adapters[name]; kept {
			continue
		}
		a := want[name]
		if err := s.m.reg.Add(a); err != nil {
			s.log.Warn("MCP tool not mounted", zap.String("tool", name), zap.Error(err))
			continue
		}
		s.adapters[name] = a
		changed = true
	}
	if changed {
		s.m.goBackground(s.m.changed) // outside s.mu: listeners may call Status
	}
}

// unregisterAll removes every tool of the server from the registry.
func (s *server) unregisterAll() {
	s.mu.Lock()
	names := make([]string, 0, len(s.adapters))
	for name := range s.adapters {
		names = append(names, name)
	}
	s.adapters = nil
	s.prompts = nil
	s.mu.Unlock()
	for _, n := range names {
		s.m.reg.Remove(n)
	}
}

// toolCount is how many tools the server has mounted.
func (s *server) toolCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.adapters)
}

func (s *server) String() string { return fmt.Sprintf("MCP server %s", s.cfg.Name) }
