package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

// route serves one method. Calls answer with (result, error); a
// notification's result is dropped and its error logged. async routes run
// on their own goroutine and may be cancelled ($/cancelRequest).
//
// A route is made by typed, inSession or unread, so that no handler
// decodes its own params: each takes them as its own type, decoded once
// here, with the one error (-32602) decodeParams gives for a mismatch.
// Each answers with its own result type R, never any: what a method
// sends is in its handler's signature, and the route keeps both types
// (params, result) for the wire test (wire_golden_test.go), which holds
// every agent/* method's golden JSON to them.
type route struct {
	serve  func(s *server, ctx context.Context, params json.RawMessage) (any, error)
	async  bool
	params reflect.Type // nil: the params are not read (unread)
	result reflect.Type
}

// handler serves a method whose params decode into P and whose result
// is an R.
type handler[P, R any] func(s *server, ctx context.Context, p P) (R, error)

// noResult is the result of a notification and of a request answered
// with null: it marshals as null, so a call of such a method still gets
// the result the protocol names.
type noResult struct{}

func (noResult) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// typed is the route of a method whose params decode into P: absent or
// null params leave P's zero value (decodeParams). A failed call answers
// with its error alone (no result).
func typed[P, R any](h handler[P, R]) route {
	return route{serve: func(s *server, ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := decodeParams(raw, &p); err != nil {
			return nil, err
		}
		r, err := h(s, ctx, p)
		if err != nil {
			return nil, err
		}
		return r, nil
	}, params: reflect.TypeFor[P](), result: reflect.TypeFor[R]()}
}

// decodeParams unmarshals params into v; absent or null params leave v
// as it is. An empty array where an object is expected, at any depth, is
// that empty object (editorjson): Lua's JSON encoders (Neovim's among
// them) cannot tell an empty table {} from []. A mismatch is -32602.
func decodeParams(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	if err := editorjson.Unmarshal(raw, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// sessionParams are the params of a method about one session, which its
// sessionId names.
type sessionParams interface{ sessionID() string }

// sessionRef is the sessionId field of such params; embedded, it makes
// them sessionParams.
type sessionRef struct {
	SessionID string `json:"sessionId"`
}

func (r sessionRef) sessionID() string { return r.SessionID }

// validator is params with checks of their own, made before the session
// is looked up (so a request that is wrong in two ways names the same
// fault whatever the session store holds).
type validator interface{ validate() error }

// sessionHandler serves a method about one session, looked up already.
type sessionHandler[P sessionParams, R any] func(s *server, ctx context.Context, sess *session, p P) (R, error)

// inSession is the route of a method about one session: the params are
// decoded, validated (validator), and the session is looked up once
// (sessionByID: a missing sessionId is -32602, an unknown one too; a
// stored one is resumed) before h runs.
func inSession[P sessionParams, R any](h sessionHandler[P, R]) route {
	return typed(func(s *server, ctx context.Context, p P) (R, error) {
		var none R
		if v, ok := any(p).(validator); ok {
			if err := v.validate(); err != nil {
				return none, err
			}
		}
		sess, err := s.sessionByID(p.sessionID())
		if err != nil {
			return none, err
		}
		return h(s, ctx, sess, p)
	})
}

// unread is the route of a method whose params are not read at all
// (lifecycle messages: whatever they carry, they do what they say).
func unread(h func(s *server, ctx context.Context) (noResult, error)) route {
	return route{serve: func(s *server, ctx context.Context, _ json.RawMessage) (any, error) {
		if _, err := h(s, ctx); err != nil {
			return nil, err
		}
		return noResult{}, nil
	}, result: reflect.TypeFor[noResult]()}
}

// async marks rt as a long call, served on its own goroutine.
func async(rt route) route {
	rt.async = true
	return rt
}

// routes is the method table; docs/protocol.md lists the same methods. It
// is a plain initialiser: no handler refers back to it.
var routes = map[string]route{
	"initialize":  typed((*server).initialize),
	"initialized": unread((*server).initialized),
	"shutdown":    unread((*server).shutdown),
	"exit":        unread((*server).exit),

	"$/cancelRequest": typed((*server).cancelRequest),
	"$/setTrace":      unread(ignore),

	"textDocument/didOpen":   typed((*server).didOpen),
	"textDocument/didChange": typed((*server).didChange),
	"textDocument/didClose":  typed((*server).didClose),
	"textDocument/didSave":   typed((*server).didSave),

	"textDocument/codeAction":        typed((*server).codeAction),
	"workspace/executeCommand":       async(typed((*server).executeCommand)),
	"window/workDoneProgress/cancel": typed((*server).progressCancel),

	"agent/newSession": typed((*server).newSession),
	"agent/prompt":     async(typed((*server).prompt)),
	"agent/sessions":   typed((*server).listSessions),
	"agent/tools":      typed((*server).listTools),
	"agent/cancel":     typed((*server).cancelSession),
	"agent/queue":      inSession((*server).queue), // queue.go
	"agent/compact":    async(inSession((*server).compact)),
	"agent/mcpStatus":  typed((*server).mcpStatus),
	"agent/mcpTrust":   async(typed((*server).mcpTrust)), // mcp_trust_decide.go
	"agent/setMode":    inSession((*server).setMode),
	"agent/setModel":   inSession((*server).setModel),
	"agent/models":     typed((*server).listModels),
	"agent/commands":   typed((*server).listCommands),
	"agent/session":    inSession((*server).sessionState),
	"agent/transcript": inSession((*server).transcript), // transcript.go

	// Custom subagents (subagents.go).
	"agent/subagents":     typed((*server).listSubagents),
	"agent/subagentTrust": typed((*server).subagentTrust),

	// Checkpoints (checkpoint.go, codelens.go).
	"agent/checkpoints":     inSession((*server).listCheckpoints),
	"agent/rewind":          async(inSession((*server).rewind)),
	"textDocument/codeLens": typed((*server).codeLens),

	"textDocument/inlineCompletion": async(typed((*server).inlineCompletion)), // inline_completion.go
}

func ignore(*server, context.Context) (noResult, error) { return noResult{}, nil }

// noParams is the params of a method that takes none: anything but an
// object (or nothing) is -32602.
type noParams struct{}
