package world

import (
	"context"
	"fmt"
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
// the subagent tool (agent.TaskTool); MCP tools join it as their servers
// start.
func NewRegistry() (*tools.Registry, error) {
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		return nil, fmt.Errorf("registering the built-in tools: %w", err)
	}
	if err := reg.Add(agent.NewTaskTool(nil)); err != nil {
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
