package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/tools"
)

type sessionStateParams struct {
	SessionID string `json:"sessionId"`
}

type sessionStateResult struct {
	SessionID string           `json:"sessionId"`
	Title     string           `json:"title"`
	Mode      string           `json:"mode"`
	Provider  string           `json:"provider"`
	Model     string           `json:"model"`
	BaseURL   string           `json:"baseURL"`
	Plan      []tools.TodoItem `json:"plan"`
}

// sessionState serves agent/session: what a view needs to draw a session
// it (re)opens — its mode, model and plan. A stored session is resumed.
func (s *server) sessionState(_ context.Context, r *request) (any, error) {
	var p sessionStateParams
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: sessionId is required")
	}
	sess, err := s.sessions.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	cfg := sess.ctl.Model()
	title := sess.ctl.Title()
	plan := sess.agent.Plan()
	if plan == nil {
		plan = []tools.TodoItem{}
	}
	return sessionStateResult{SessionID: sess.id, Title: title, Mode: string(sess.agent.Mode()),
		Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL, Plan: plan}, nil
}
