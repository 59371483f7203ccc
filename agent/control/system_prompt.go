package control

import (
	"runtime"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/tools"
)

// systemPrompt is a new session's system prompt in ws: the front end's
// (Options.SystemPrompt), else DefaultSystemPrompt.
func (c *Controller) systemPrompt(ws *tools.Workspace) string {
	if c.o.SystemPrompt != nil {
		return c.o.SystemPrompt(ws)
	}
	return DefaultSystemPrompt(ws)
}

// DefaultSystemPrompt is the system prompt of a session in ws on this OS:
// run_bash runs bash (on Windows, Git Bash's or WSL's).
func DefaultSystemPrompt(ws *tools.Workspace) string {
	shell := "bash"
	if runtime.GOOS == "windows" {
		shell = "bash (Git Bash or WSL)"
	}
	return agent.SystemPrompt(ws, runtime.GOOS, shell)
}
