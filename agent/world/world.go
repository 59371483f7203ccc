package world

import (
	"context"
	"fmt"
	"os"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// MCPStartWait bounds how long a front end that waits for its MCP servers
// (a new ACP session, the terminal chat) waits before the first prompt; a
// server still starting mounts its tools and commands later. 20 s covers
// an npx server's first start, which downloads its package.
const MCPStartWait = 20 * time.Second

// StartMCP starts the servers of configs on m and waits until each is
// ready or down, at most MCPStartWait or until ctx ends.
func StartMCP(ctx context.Context, m *mcp.Manager, configs []mcp.ServerConfig) {
	m.Start(ctx, configs)
	wctx, cancel := context.WithTimeout(ctx, MCPStartWait)
	defer cancel()
	_ = m.WaitReady(wctx) // a server still starting mounts later
}

// NewRegistry is a session's tool registry with the built-in tools and
// the subagent tool (agent.TaskTool) offering the custom subagents of
// subagents (nil: none); MCP tools join it as their servers start.
func NewRegistry(subagents *control.SubagentCatalog) (*tools.Registry, error) {
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		return nil, fmt.Errorf("registering the built-in tools: %w", err)
	}
	var catalog func() []agent.SubagentDef
	if subagents != nil {
		catalog = subagents.Subagents
	}
	if err := reg.Add(agent.NewTaskTool(catalog)); err != nil {
		return nil, fmt.Errorf("registering the task tool: %w", err)
	}
	return reg, nil
}

// SystemPrompt is a new session's system prompt in ws, on this OS, with
// note (a front end's word on the workspace, "" for none) at its end.
func SystemPrompt(ws *tools.Workspace, note string) string {
	return control.DefaultSystemPrompt(ws) + note
}

// OpenStore opens the session store in dir ("": the user's state
// directory, agent.DefaultStateDir).
func OpenStore(dir string, log *zap.Logger) (*agent.Store, error) {
	if dir == "" {
		d, err := agent.DefaultStateDir()
		if err != nil {
			return nil, fmt.Errorf("session store: %w", err)
		}
		dir = d
	}
	return agent.NewStore(dir, log)
}

// Subagents is the custom subagents' catalog of a workspace: its own
// files (none when roots is empty: a restricted workspace), the user's
// (~/.agents/agents, ~/.claude/agents), the decisions stored under
// stateDir ("": the user's state directory).
func Subagents(roots []string, stateDir string) *control.SubagentCatalog {
	home, _ := os.UserHomeDir() // none: no user files
	if stateDir == "" {
		stateDir, _ = agent.DefaultStateDir()
	}
	var store *control.SubagentTrustStore
	if stateDir != "" {
		store = control.NewSubagentTrustStore(stateDir)
	}
	return control.NewSubagentCatalog(roots, home, store)
}
