package lsp

import (
	"context"
	"time"

	"github.com/agent-lsp/agent-lsp/mcp"
)

type newSessionParams struct {
	Title string `json:"title"`
}

type newSessionResult struct {
	SessionID string `json:"sessionId"`
}

func (s *server) newSession(_ context.Context, p newSessionParams) (newSessionResult, error) {
	sess, err := s.sessions.create(p.Title)
	if err != nil {
		return newSessionResult{}, err
	}
	return newSessionResult{SessionID: sess.id}, nil
}

type sessionInfo struct {
	SessionID string    `json:"sessionId"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type sessionsResult struct {
	Sessions []sessionInfo `json:"sessions"`
}

func (s *server) listSessions(context.Context, noParams) (sessionsResult, error) {
	return sessionsResult{Sessions: s.sessions.list()}, nil
}

type toolInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

type toolsResult struct {
	Tools   []toolInfo       `json:"tools"`
	Prompts []mcp.PromptInfo `json:"prompts"`
}

// listTools serves agent/tools: the registry's tools as the next prompt
// sees them (MCP tools mount when their server is ready), and the MCP
// servers' prompts.
func (s *server) listTools(context.Context, noParams) (toolsResult, error) {
	s.mu.Lock()
	reg := s.registry
	s.mu.Unlock()
	res := toolsResult{Tools: []toolInfo{}, Prompts: s.mcpPrompts()}
	for _, t := range reg.Tools() {
		res.Tools = append(res.Tools, toolInfo{Name: t.Name(), Description: t.Description(), Source: toolSource(t)})
	}
	return res, nil
}

type cancelParams struct {
	SessionID string `json:"sessionId"`
	// DropQueue also removes the session's queued prompts (each answered
	// as removed); without it they run after the cancelled one.
	DropQueue bool `json:"dropQueue,omitempty"`
}

// cancelSession handles the agent/cancel notification: the running
// prompt, the prompts waiting without a delivery and the steer messages
// end with stopReason "cancelled"; the prompts queued with delivery
// "queue" run next, unless dropQueue removes them too.
func (s *server) cancelSession(_ context.Context, p cancelParams) (noResult, error) {
	sess, ok := s.sessions.get(p.SessionID)
	if !ok {
		if s.sessions.known(p.SessionID) {
			return noResult{}, nil // stored, not loaded: nothing of it runs
		}
		return noResult{}, unknownSession(p.SessionID)
	}
	if p.DropQueue {
		sess.ctl.DropQueue() // first: the cancelled prompt's end starts no queued one
	}
	sess.ctl.Cancel(errCancelledByClient)
	return noResult{}, nil
}
