package hooks

import (
	"encoding/json"
	"path/filepath"
)

// peerNames are Claude Code's names of our built-in tools: a hook
// configured for "Bash" or "Edit|Write" applies to run_bash, edit_file
// and write_file, and its script reads the input it expects.
var peerNames = map[string]string{
	"read_file": "Read", "write_file": "Write", "edit_file": "Edit", "run_bash": "Bash",
	"glob": "Glob", "grep": "Grep", "web_fetch": "WebFetch", "todo_write": "TodoWrite",
	"task": "Task", "skill": "Skill",
}

// toolName is the name a hook sees: Claude Code's for a built-in, the
// tool's own for the rest (MCP tools are mcp__<server>__<tool> in both).
func toolName(ours string) string {
	if p, ok := peerNames[ours]; ok {
		return p
	}
	return ours
}

// toolInput is a call's arguments as a hook reads them: ours, plus
// Claude Code's field names where they differ (file_path, absolute;
// timeout in milliseconds).
func toolInput(args json.RawMessage, root string) map[string]any {
	in := map[string]any{}
	_ = json.Unmarshal(args, &in) // arguments that are no object reach the hook as {}
	if p, ok := in["path"].(string); ok && p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		in["file_path"] = p
	}
	if t, ok := in["timeout_ms"].(float64); ok {
		in["timeout"] = t
	}
	return in
}
