package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/tools"
)

// parseControlOptions checks initializationOptions.mode and .models, the
// fields the controller takes.
func parseControlOptions(o initOptions) (agent.Mode, []modelPreset, error) {
	mode := agent.ModeDefault
	if o.Mode != nil {
		m, err := agent.ParseMode(*o.Mode)
		if err != nil {
			return "", nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.mode: %v", err)
		}
		mode = m
	}
	for _, p := range o.Models {
		if err := p.Validate(); err != nil {
			return "", nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions.models: %v", err)
		}
	}
	return mode, o.Models, nil
}

// mcpPromptSource gives sessions the daemon's MCP prompts: the servers
// start in the background, so the manager is looked up at each use.
type mcpPromptSource struct{ s *server }

func (p mcpPromptSource) Prompts() []mcp.PromptInfo { return p.s.mcpPrompts() }

func (p mcpPromptSource) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	mgr := p.s.mcp.manager()
	if mgr == nil {
		return "", errors.New("no MCP server is running")
	}
	return mgr.GetPrompt(ctx, server, name, args)
}

// Payloads of the control kinds of agent/update (the header: updates.go).
type (
	modeUpdate struct {
		updateHeader
		Mode string `json:"mode"`
	}
	modelUpdate struct {
		updateHeader
		Provider string `json:"provider"`
		Model    string `json:"model"`
		BaseURL  string `json:"baseURL"`
		// Message says why the model changed when the user did not ask
		// for it: a resumed session's stored model could not be reached.
		Message string `json:"message,omitempty"`
	}
	planUpdate struct {
		updateHeader
		Items []tools.TodoItem `json:"items"`
	}
	mentionUpdate struct {
		updateHeader
		agent.MentionReport
	}
)

// sendControl is every session's Binding.Notify: a controller update
// becomes the agent/update of its kind. Title and command-list changes
// have no agent/update kind (agent/sessions and agent/commands answer
// them), so they are not sent.
func (s *server) sendControl(u control.Update) {
	sess := s.sessions.view(u.SessionID)
	switch u.Kind {
	case control.UpdateMode:
		sess.sendUpdate(s, &modeUpdate{updateHeader: kind("mode"), Mode: string(u.Mode)})
	case control.UpdateModel:
		sess.sendUpdate(s, &modelUpdate{updateHeader: kind("model"), Provider: u.Model.Provider, Model: u.Model.Model,
			BaseURL: u.Model.BaseURL, Message: u.Message})
	case control.UpdatePlan:
		items := u.Plan
		if items == nil {
			items = []tools.TodoItem{}
		}
		sess.sendUpdate(s, &planUpdate{updateHeader: kind("plan"), Items: items})
	case control.UpdateMention:
		sess.sendUpdate(s, &mentionUpdate{updateHeader: kind("mention"), MentionReport: u.Mention})
	case control.UpdateQueue:
		sess.sendUpdate(s, &queueUpdate{updateHeader: kind("queue"), Items: queueItems(u.Queue)})
	}
}
