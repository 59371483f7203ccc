package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// unreadMethods are the methods served without reading their params.
var unreadMethods = map[string]bool{"initialized": true, "shutdown": true, "exit": true, "$/setTrace": true}

// Every other method decodes its params through its route, before its
// handler runs: params that are not an object are -32602, whatever the
// method (no handler is reached: the server here is nil).
func TestEveryRouteDecodesItsParamsFirst(t *testing.T) {
	for method, rt := range routes {
		if unreadMethods[method] {
			continue
		}
		_, err := rt.serve(nil, context.Background(), json.RawMessage(`5`))
		var jerr *jsonrpc2.Error
		if !errors.As(err, &jerr) || jerr.Code != jsonrpc2.InvalidParams {
			t.Errorf("%s with params 5: %v, want -32602", method, err)
		}
	}
}

// A session route without a sessionId is -32602 before any session is
// looked up (the server here is nil), with the message each method gave
// when it checked by itself.
func TestSessionRoutesRequireASessionID(t *testing.T) {
	for method, want := range map[string]string{
		"agent/compact":     "invalid params: sessionId is required",
		"agent/setModel":    "invalid params: sessionId is required",
		"agent/session":     "invalid params: sessionId is required",
		"agent/transcript":  "invalid params: sessionId is required",
		"agent/checkpoints": "invalid params: sessionId is required",
		"agent/setMode":     "invalid params: sessionId and mode are required",
		"agent/rewind":      "invalid params: checkpointId is required",
	} {
		_, err := routes[method].serve(nil, context.Background(), json.RawMessage(`{}`))
		var jerr *jsonrpc2.Error
		if !errors.As(err, &jerr) || jerr.Code != jsonrpc2.InvalidParams || jerr.Message != want {
			t.Errorf("%s without a session: %v, want -32602 %q", method, err, want)
		}
	}
}
