package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/tools"
)

type sessionStateParams struct {
	sessionRef
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
func (s *server) sessionState(_ context.Context, sess *session, _ sessionStateParams) (sessionStateResult, error) {
	cfg := sess.ctl.Model()
	title := sess.ctl.Title()
	plan := sess.agent.Plan()
	if plan == nil {
		plan = []tools.TodoItem{}
	}
	return sessionStateResult{SessionID: sess.id, Title: title, Mode: string(sess.agent.Mode()),
		Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL, Plan: plan}, nil
}
