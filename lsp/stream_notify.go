package lsp

import (
	"encoding/json"
	"fmt"

	"go.uber.org/zap"
)

// notification is a JSON-RPC notification as it goes on the wire.
type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// notify writes a notification marshalled once. jsonrpc2's Notify
// marshals the params, then the message around them, which compacts and
// copies the params' JSON again: for agent/update, written for every
// streamed delta, that was two thirds of the write's CPU and allocation.
func (s *stream) notify(method string, params any) error {
	data, err := json.Marshal(notification{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return fmt.Errorf("marshaling %s: %w", method, err)
	}
	return s.writeFrame(data)
}

// notifyUpdate writes an agent/update: through the stream in one marshal
// when there is one, else (a server built without a stream, in tests)
// through the connection.
func (s *server) notifyUpdate(u payload) {
	if s.frames == nil {
		s.notify("agent/update", u)
		return
	}
	if err := s.frames.notify("agent/update", u); err != nil && !isClosed(err) {
		s.log.Warn("notification not sent", zap.String("method", "agent/update"), zap.Error(err))
	}
}
