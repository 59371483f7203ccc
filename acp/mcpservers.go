package acp

import (
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/mcp"
)

// mcpSource names the client's MCP servers in messages.
const mcpSource = "ACP session"

// mcpConfigs turns the client's MCP servers into ours. The client's list
// is the user's own configuration (like an editor's settings), so it is
// trusted: no question is asked before starting a server.
func mcpConfigs(servers []sdk.McpServer) ([]mcp.ServerConfig, error) {
	var out []mcp.ServerConfig
	for i, s := range servers {
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, e := range s.Stdio.Env {
				env[e.Name] = e.Value
			}
			out = append(out, mcp.ServerConfig{Name: s.Stdio.Name, Type: mcp.TypeStdio, Command: s.Stdio.Command,
				Args: s.Stdio.Args, Env: env, Source: mcpSource})
		case s.Http != nil:
			out = append(out, mcp.ServerConfig{Name: s.Http.Name, Type: mcp.TypeHTTP, URL: s.Http.Url,
				Headers: headers(s.Http.Headers), Source: mcpSource})
		case s.Sse != nil:
			out = append(out, mcp.ServerConfig{Name: s.Sse.Name, Type: mcp.TypeSSE, URL: s.Sse.Url,
				Headers: headers(s.Sse.Headers), Source: mcpSource})
		default:
			return nil, fmt.Errorf("mcpServers[%d]: unsupported transport (stdio, http and sse are)", i)
		}
		if c := out[len(out)-1]; c.Name == "" || (c.Command == "" && c.URL == "") {
			return nil, fmt.Errorf("mcpServers[%d]: a server needs a name and a command or url", i)
		}
	}
	return out, nil
}

func headers(hs []sdk.HttpHeader) map[string]string {
	m := map[string]string{}
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}
