package mcp

import "fmt"

// Stop ends the named server for good (its process group killed, its
// tools unregistered) and forgets it, so that Start may start that name
// again: a workspace entry whose trust was withdrawn stops at once.
func (m *Manager) Stop(name string) error {
	m.mu.Lock()
	s, ok := m.servers[name]
	if ok {
		delete(m.servers, name)
	}
	m.mu.Unlock()
	if !ok {
		return fmt.Errorf("no MCP server %q is running", name)
	}
	s.shutdown()
	m.changed()
	return nil
}
