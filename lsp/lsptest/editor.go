package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Handlers answer the server's requests. Nil fields take the defaults.
type Handlers struct {
	// ShowMessageRequest answers a popup; the default answers null (Deny).
	// It runs on its own goroutine and may block until ctx ends.
	ShowMessageRequest func(ctx context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error)
	// RefuseEdits, when set, answers every workspace/applyEdit with
	// applied:false and this reason, changing nothing.
	RefuseEdits string
	// Review answers agent/review (announce Capabilities.AgentReview); the
	// default answers null (Deny). It runs on its own goroutine and may
	// block until ctx ends, or type into buffers (Change) meanwhile.
	Review func(ctx context.Context, p ReviewParams) (*ReviewAnswer, error)
	// Approve answers agent/approve (announce Capabilities.AgentApprove);
	// the default answers null (Deny). It runs on its own goroutine and
	// may block until ctx ends.
	Approve func(ctx context.Context, p ApproveParams) (*ApproveAnswer, error)
	// BeforeApplyEdit, when set, runs as each workspace/applyEdit arrives,
	// before it is checked and applied: a user typing (Change) there makes
	// a versioned edit stale.
	BeforeApplyEdit func(ctx context.Context)
	// SaveEdits, when set, saves every file an applied edit changed or
	// created before answering, by path (os.WriteFile follows symlinks), as
	// the VS Code extension does with autoSave.
	SaveEdits bool
}

// Notification is one notification the editor received.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Buffer is the editor's text of a file.
type Buffer struct {
	Text    string
	Version int32
	Open    bool // the server was told (didOpen)
	Dirty   bool // differs from the disk
}

// Editor is the fake editor. Create it with Connect.
type Editor struct {
	conn     jsonrpc2.Conn
	handlers Handlers

	mu            sync.Mutex
	buffers       map[string]*Buffer // by URI
	notes         []Notification
	edits         []json.RawMessage // workspace/applyEdit params, in order
	undo          []json.RawMessage // the inverse of each server edit not undone (workspace_edit.go)
	tokens        []string          // work-done progress tokens the server created
	lensRefreshes int               // workspace/codeLens/refresh requests received
	changed       chan struct{}     // closed and replaced when notes change
	applying      sync.Mutex        // one edit at a time, didChange before the answer

	callMu sync.Mutex
	sent   int32 // requests sent: jsonrpc2 numbers them 1, 2, …
}

// Connect starts the client on rwc.
func Connect(ctx context.Context, rwc io.ReadWriteCloser, h Handlers) *Editor {
	e := &Editor{
		conn:     jsonrpc2.NewConn(jsonrpc2.NewStream(rwc)),
		handlers: h,
		buffers:  map[string]*Buffer{},
		changed:  make(chan struct{}),
	}
	e.conn.Go(ctx, e.handle)
	return e
}

// Close closes the connection.
func (e *Editor) Close() error { return e.conn.Close() }

// Done is closed when the connection is gone.
func (e *Editor) Done() <-chan struct{} { return e.conn.Done() }

// Call sends a request and decodes its result into result (may be nil).
func (e *Editor) Call(ctx context.Context, method string, params, result any) error {
	e.callMu.Lock()
	e.sent++
	e.callMu.Unlock()
	_, err := e.conn.Call(ctx, method, params, result)
	return err
}

// CallResult is the outcome of CallAsync.
type CallResult struct {
	Result json.RawMessage
	Err    error
}

// CallAsync sends a request from a goroutine and returns its id at once
// (for $/cancelRequest) with a channel for its outcome. The id is
// predicted from jsonrpc2's numbering, so no other Call may be starting at
// the same time.
func (e *Editor) CallAsync(ctx context.Context, method string, params any) (int32, <-chan CallResult) {
	e.callMu.Lock()
	e.sent++
	id := e.sent
	e.callMu.Unlock()
	ch := make(chan CallResult, 1)
	go func() {
		var raw json.RawMessage
		_, err := e.conn.Call(ctx, method, params, &raw)
		ch <- CallResult{Result: raw, Err: err}
	}()
	return id, ch
}

// Notify sends a notification.
func (e *Editor) Notify(ctx context.Context, method string, params any) error {
	return e.conn.Notify(ctx, method, params)
}

// Capabilities are the client capabilities the editor announces.
type Capabilities struct {
	ApplyEdit          bool
	DocumentChanges    bool
	ResourceOperations []string
	WorkDoneProgress   bool
	AgentReview        bool   // experimental.agentReview: agent/review instead of popups for edits
	AgentApprove       bool   // experimental.agentApprove: agent/approve instead of popups
	ClientName         string // clientInfo.name, when not empty: the editor the daemon speaks to
	CodeLensRefresh    bool   // workspace.codeLens.refreshSupport: workspace/codeLens/refresh is answered
}

// Initialize sends initialize (root as rootUri and workspace folder, the
// capabilities, the options) and initialized; it returns the raw result.
func (e *Editor) Initialize(ctx context.Context, root string, caps Capabilities, options any) (json.RawMessage, error) {
	uri := FileURI(root)
	params := map[string]any{
		"processId":        os.Getpid(),
		"rootUri":          uri,
		"workspaceFolders": []map[string]any{{"uri": uri, "name": filepath.Base(root)}},
		"capabilities": map[string]any{
			"workspace": map[string]any{
				"applyEdit": caps.ApplyEdit,
				"workspaceEdit": map[string]any{
					"documentChanges":    caps.DocumentChanges,
					"resourceOperations": caps.ResourceOperations,
				},
				"codeLens": map[string]any{"refreshSupport": caps.CodeLensRefresh},
			},
			"window":       map[string]any{"workDoneProgress": caps.WorkDoneProgress},
			"experimental": map[string]any{"agentReview": caps.AgentReview, "agentApprove": caps.AgentApprove},
		},
		"initializationOptions": options,
	}
	if caps.ClientName != "" {
		params["clientInfo"] = map[string]any{"name": caps.ClientName}
	}
	var res json.RawMessage
	if err := e.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	return res, e.Notify(ctx, "initialized", map[string]any{})
}

// handle never writes on the read loop (every reply goes from its own
// goroutine), as a real editor reads on a thread of its own: otherwise the
// read loops of both ends, each writing to an unbuffered pipe, could block
// on each other.
func (e *Editor) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if _, isCall := req.(*jsonrpc2.Call); !isCall {
		e.mu.Lock()
		e.notes = append(e.notes, Notification{Method: req.Method(), Params: append(json.RawMessage(nil), req.Params()...)})
		close(e.changed)
		e.changed = make(chan struct{})
		e.mu.Unlock()
		return nil
	}
	params := append(json.RawMessage(nil), req.Params()...)
	switch req.Method() {
	case "window/showMessageRequest":
		// Answered on its own goroutine: a test's handler may wait.
		go func() {
			var p protocol.ShowMessageRequestParams
			_ = json.Unmarshal(params, &p)
			var answer *protocol.MessageActionItem
			var err error
			if e.handlers.ShowMessageRequest != nil {
				answer, err = e.handlers.ShowMessageRequest(ctx, p)
			}
			_ = reply(ctx, answer, err)
		}()
		return nil
	case "agent/review":
		go func() {
			var p ReviewParams
			_ = json.Unmarshal(params, &p)
			var answer *ReviewAnswer
			var err error
			if e.handlers.Review != nil {
				answer, err = e.handlers.Review(ctx, p)
			}
			_ = reply(ctx, answer, err)
		}()
		return nil
	case "agent/approve":
		go func() { answer, err := e.approve(ctx, params); _ = reply(ctx, answer, err) }()
		return nil
	case "workspace/applyEdit":
		go func() { _ = reply(ctx, e.applyEdit(ctx, params), nil) }()
		return nil
	case "workspace/codeLens/refresh":
		e.mu.Lock()
		e.lensRefreshes++
		close(e.changed)
		e.changed = make(chan struct{})
		e.mu.Unlock()
		go func() { _ = reply(ctx, nil, nil) }()
		return nil
	case "window/workDoneProgress/create":
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		_ = json.Unmarshal(params, &p)
		e.mu.Lock()
		e.tokens = append(e.tokens, string(p.Token))
		e.mu.Unlock()
		go func() { _ = reply(ctx, nil, nil) }()
		return nil
	}
	go func() { _ = reply(ctx, nil, fmt.Errorf("%s: %w", req.Method(), jsonrpc2.ErrMethodNotFound)) }()
	return nil
}
