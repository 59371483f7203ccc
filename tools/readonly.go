package tools

// The built-in tools that only read: every call is a read inside the
// workspace, so a read-only mode offers them.

func (readFileTool) ReadOnly() bool { return true }
func (globTool) ReadOnly() bool     { return true }
func (grepTool) ReadOnly() bool     { return true }

// skillTool's ReadOnly is in skill_tool.go: it reads the workspace's and
// the user's skill folders.
