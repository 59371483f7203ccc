package mcp

// ReadOnly marks the tools a read-only mode (ask, plan) may offer: only
// list_resources and read_resource, which are ours and only read. A
// server's own tools are never read-only here, whatever their
// readOnlyHint says: the hint comes from an untrusted server, and "just
// look" must not depend on its word.
func (a *toolAdapter) ReadOnly() bool { return a.readOnly && a.run != nil }
