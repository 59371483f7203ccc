package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

type setModeParams struct {
	sessionRef
	Mode string `json:"mode"`
}

// validate: both are required, checked before the session is looked up.
func (p setModeParams) validate() error {
	if p.SessionID == "" || strings.TrimSpace(p.Mode) == "" {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: sessionId and mode are required")
	}
	return nil
}

type modeResult struct {
	Mode string `json:"mode"`
}

// setMode serves agent/setMode: the mode takes effect at the session's
// next model call; a mode update tells every view of the session.
func (s *server) setMode(_ context.Context, sess *session, p setModeParams) (modeResult, error) {
	m, err := sess.ctl.SetMode(p.Mode)
	if err != nil {
		return modeResult{}, controlError(err, p.SessionID)
	}
	return modeResult{Mode: string(m)}, nil
}
