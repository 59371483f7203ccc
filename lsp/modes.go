package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent"
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
	m, err := s.switchMode(sess, p.Mode)
	if err != nil {
		return nil, err
	}
	return modeResult{Mode: string(m)}, nil
}

func (s *server) switchMode(sess *session, name string) (agent.Mode, error) {
	m, err := agent.ParseMode(name)
	if err != nil {
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	if err := sess.agent.SetMode(m); err != nil {
		return "", jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	s.sendControlUpdate(sess, "mode", &modeUpdate{Mode: string(m)})
	return m, nil
}

// describeModes is the text of a bare /mode.
func describeModes(current agent.Mode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Mode: %s. Modes (/mode <name>):", current)
	for _, m := range agent.Modes {
		fmt.Fprintf(&b, "\n  %s: %s", m, m.Description())
	}
	return b.String()
}
