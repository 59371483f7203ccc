package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/tools"
)

// GetPrompt fetches one prompt of a mounted server with prompts/get and
// renders its messages as one text, the user message a slash command
// sends: each message's content in order, separated by blank lines, a
// message of another role than the user's marked with it. A missing
// required argument, an unknown prompt or a server that is down is an
// error saying which.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	s, err := m.server(server)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	var info *PromptInfo
	for i := range s.prompts {
		if s.prompts[i].Name == name {
			info = &s.prompts[i]
			break
		}
	}
	s.mu.Unlock()
	if info == nil {
		return "", fmt.Errorf("MCP server %s has no prompt %q", server, name)
	}
	var missing []string
	for _, a := range info.Arguments {
		if a.Required && args[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("prompt %s of MCP server %s needs the argument(s) %s", name, server, strings.Join(missing, ", "))
	}
	var res *sdk.GetPromptResult
	err = s.withSession(ctx, fmt.Sprintf("prompt %q", name), func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
		return err
	})
	if err != nil {
		return "", err
	}
	return promptText(res), nil
}

// promptText renders a prompts/get result as the text of one user message.
func promptText(res *sdk.GetPromptResult) string {
	var parts []string
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		text := contentText(msg.Content)
		if text == "" {
			continue
		}
		if msg.Role != "" && msg.Role != "user" {
			text = "[" + string(msg.Role) + "] " + text
		}
		parts = append(parts, text)
	}
	return tools.Truncate(strings.Join(parts, "\n\n"), maxResultText)
}
