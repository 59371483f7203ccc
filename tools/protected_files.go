package tools

import "github.com/agent-lsp/agent-lsp/permission"

// SetProtectedFiles sets the workspace's protected files: the built-in
// list extended by the user's configuration (flags, initializationOptions),
// never by the workspace. Writing one through write_file or edit_file is
// HIGH. Without a call the built-in list holds.
func (w *Workspace) SetProtectedFiles(p permission.ProtectedFiles) {
	w.mu.Lock()
	w.protected = p
	w.mu.Unlock()
}

// ProtectedFiles returns the list SetProtectedFiles set (the built-in one
// without it).
func (w *Workspace) ProtectedFiles() permission.ProtectedFiles {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.protected
}
