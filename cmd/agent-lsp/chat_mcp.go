package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// mcpStartWait bounds how long the chat waits for MCP servers before the
// first prompt; a server still starting then mounts its tools later.
const mcpStartWait = 20 * time.Second

// mcpFlags collects repeated --mcp values.
type mcpFlags []string

func (m *mcpFlags) String() string     { return strings.Join(*m, ",") }
func (m *mcpFlags) Set(v string) error { *m = append(*m, v); return nil }

// mountMCP starts the configured MCP servers (.mcp.json in the workspace,
// then --mcp flags), waits for them, and prints one line per server like
// the seeds: MCP[<server>] mounted N tools. Bad configuration is reported
// and skipped; it never stops the chat.
func mountMCP(ctx context.Context, ws *tools.Workspace, reg *tools.Registry, flags []string, out io.Writer, log *zap.Logger) *mcp.Manager {
	roots := ws.Roots()
	servers, errs := mcp.LoadConfig(roots[0], nil, flags, secretGetenv)
	for _, err := range errs {
		fmt.Fprintf(out, "MCP config: %v\n", err)
	}
	if len(servers) == 0 {
		return nil
	}
	m := mcp.NewManager(reg, roots, log)
	m.Start(ctx, servers)
	wctx, cancel := context.WithTimeout(ctx, mcpStartWait)
	defer cancel()
	_ = m.WaitReady(wctx) // a server still starting is reported as such below
	for _, st := range m.Status() {
		switch st.State {
		case mcp.StateReady:
			fmt.Fprintf(out, "MCP[%s] mounted %d tools (protocol %s)\n", st.Name, st.Tools, st.ProtocolVersion)
		case mcp.StateDown:
			fmt.Fprintf(out, "MCP[%s] down: %s\n", st.Name, st.Error)
		default:
			fmt.Fprintf(out, "MCP[%s] still starting; its tools mount when it is ready\n", st.Name)
		}
	}
	return m
}
