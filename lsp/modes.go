package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

type setModeParams struct {
	SessionID string `json:"sessionId"`
	Mode      string `json:"mode"`
}

type modeResult struct {
	Mode string `json:"mode"`
}

// setMode serves agent/setMode: the mode takes effect at the session's
// next model call; a mode update tells every view of the session.
func (s *server) setMode(_ context.Context, r *request) (any, error) {
	var p setModeParams
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == "" || strings.TrimSpace(p.Mode) == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: sessionId and mode are required")
	}
	sess, err := s.sessions.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	m, err := sess.ctl.SetMode(p.Mode)
	if err != nil {
		return nil, controlError(err, p.SessionID)
	}
	return modeResult{Mode: string(m)}, nil
}
