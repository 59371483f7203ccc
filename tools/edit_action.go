package tools

import "github.com/agent-lsp/agent-lsp/permission"

// FileEditAction is the action of an edit that replaces doc's text (the
// text the hunks are computed against) with after, rated as write_file
// rates it in ws (a protected or secret file is HIGH): for an edit made
// outside the tools, such as work brought back from a session's git
// worktree, asked about as the tools' edits are.
func FileEditAction(tool, summary, rel string, doc Doc, after string, ws *Workspace) permission.Action {
	return fileAction(tool, summary, rel, doc, after, ws.ProtectedFiles())
}
