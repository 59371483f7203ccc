package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
)

// commandInfo is one slash command, as agent/commands lists it.
type commandInfo struct {
	Name        string               `json:"name"` // with its slash: "/mode"
	Description string               `json:"description"`
	Arguments   []mcp.PromptArgument `json:"arguments"`
	Source      string               `json:"source"` // "builtin" or "mcp:<server>"
}

type commandsResult struct {
	Commands []commandInfo `json:"commands"`
}

// listCommands serves agent/commands: the built-in commands and every MCP
// prompt as /mcp__<server>__<prompt>: the daemon's sessions share its MCP
// servers, so their list is the same.
func (s *server) listCommands(context.Context, noParams) (commandsResult, error) {
	res := commandsResult{Commands: []commandInfo{}}
	for _, c := range control.Commands(mcpPromptSource{s: s}, s.ws) {
		res.Commands = append(res.Commands, commandInfo{Name: c.Name, Description: c.Description,
			Arguments: c.Arguments, Source: c.Source})
	}
	return res, nil
}
