package lsp

import (
	"errors"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/agent/world"
)

// openStore opens the session store in dir (default: the user's state
// directory). A daemon that cannot store sessions still serves: it keeps
// them in memory and returns why, for the editor to be told once.
func openStore(dir string, log *zap.Logger) (*agent.Store, error) {
	st, err := world.OpenStore(dir, log)
	if err != nil {
		log.Warn("sessions are kept in memory only", zap.String("dir", dir), zap.Error(err))
		return nil, err
	}
	log.Info("sessions are stored", zap.String("dir", st.Dir()))
	return st, nil
}

// reportStoreUnusable tells the user, once, that sessions will not survive
// a restart because the state directory cannot be used.
func (s *server) reportStoreUnusable() {
	if s.storeErr == nil {
		return
	}
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
		Message: "agent-lsp: sessions are not saved and will not survive a restart: " + s.storeErr.Error()})
}

// sessionNotSaved is a session's Config.OnStoreError: the session's file
// could not be written (the disk is full, the file was replaced), and the
// session goes on in memory. The agent calls it once per session.
func (s *server) sessionNotSaved(_ string, err error) {
	s.notify("window/showMessage", protocol.ShowMessageParams{Type: protocol.MessageTypeWarning,
		Message: "agent-lsp: this session is no longer saved and goes on in memory only: " + err.Error()})
}

// unknownSession is the answer for an id that is neither loaded nor stored.
func unknownSession(id string) error {
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown session %q", id)
}

// controlError is the answer for a controller's error: its kinds become
// the LSP codes (a user-input error is InvalidParams, a cancellation is
// RequestCancelled), every other failure is RequestFailed. id names the
// session an unknown-session error is about.
func controlError(err error, id string) error {
	var rpc *jsonrpc2.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rpc):
		return err
	case errors.Is(err, control.ErrUnknownSession):
		return unknownSession(id)
	case errors.Is(err, control.ErrInvalid):
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	case errors.Is(err, control.ErrCancelled):
		return errRequestCancelled
	case errors.Is(err, control.ErrNotInitialized):
		return errNotInitialized
	}
	return jsonrpc2.Errorf(codeRequestFailed, "%v", err)
}
