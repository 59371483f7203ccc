package lsp

import (
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// Restricted mode (initializationOptions.workspaceTrust "restricted") is
// the daemon of a folder the user has not trusted (VS Code's restricted
// mode): a read-only agent. It is decided here, in the daemon, and not left
// to the editor or the model: the tools that change files or run commands
// are not in the registry (so no mode, slash command, resumed session or
// model call can reach them), every question is answered no without being
// asked (a user MCP server's tool that is not read-only is refused), and
// the workspace's .mcp.json is not loaded at all.
const (
	workspaceTrusted    = "trusted"
	workspaceRestricted = "restricted"
)

// restrictedReason is what the model and the front end read for a refused
// call: why, and what the user can do about it.
const restrictedReason = "this folder is not trusted (restricted mode): the agent may only read and search; " +
	"trust the folder to let it edit files and run commands"

// restrictedNote goes at the end of the system prompt of a restricted
// session, so that the model does not plan work it cannot do.
const restrictedNote = "\n\nThis workspace is in restricted mode (the user has not trusted the folder): only " +
	"read-only tools are available. Read, search and answer; do not try to change files or run commands."

// parseWorkspaceTrust reads initializationOptions.workspaceTrust: absent or
// "trusted" is the full agent, "restricted" the read-only one. Any other
// value fails initialize: a misspelt "restricted" must not give full powers.
func parseWorkspaceTrust(v *string) (restricted bool, err error) {
	if v == nil {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(*v)) {
	case "", workspaceTrusted:
		return false, nil
	case workspaceRestricted:
		return true, nil
	}
	return false, jsonrpc2.Errorf(jsonrpc2.InvalidParams,
		"initializationOptions.workspaceTrust: %q: want %q or %q", *v, workspaceTrusted, workspaceRestricted)
}

// keepReadOnlyTools removes from reg every tool that is not read-only: in
// restricted mode write_file, edit_file and run_bash do not exist, and a
// call to one is refused as an unknown tool, whatever the session's mode.
func keepReadOnlyTools(reg *tools.Registry) {
	for _, t := range reg.Tools() {
		if !tools.IsReadOnly(t) {
			reg.Remove(t.Name())
		}
	}
}

// restrictedApprover answers every question no, without asking: in
// restricted mode nothing that needs the user's yes runs.
func restrictedApprover() permission.Approver {
	return permission.DenyAll{Reason: restrictedReason}
}

// withoutWorkspaceMCP drops the workspace's .mcp.json entries, and what
// reading it reported, from loaded: a restricted daemon neither starts
// them nor asks about them.
func withoutWorkspaceMCP(loaded mcp.LoadedConfig, root string) mcp.LoadedConfig {
	loaded.Workspace = nil
	if root == "" {
		return loaded
	}
	file := filepath.Join(root, mcp.ConfigFileName)
	var kept []error
	for _, err := range loaded.Errors {
		if !strings.HasPrefix(err.Error(), file) {
			kept = append(kept, err)
		}
	}
	loaded.Errors = kept
	return loaded
}

// trustName is experimental.agent.workspaceTrust in the initialize
// result: what the daemon runs as, so a front end can say so.
func trustName(restricted bool) string {
	if restricted {
		return workspaceRestricted
	}
	return workspaceTrusted
}

// isRestricted tells whether this daemon is the read-only agent.
func (s *server) isRestricted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings.restricted
}
