package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
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

	mu       sync.Mutex
	buffers  map[string]*Buffer // by URI
	notes    []Notification
	edits    []json.RawMessage // workspace/applyEdit params, in order
	undo     []json.RawMessage // the inverse of each server edit not undone (workspace_edit.go)
	tokens   []string          // work-done progress tokens the server created
	changed  chan struct{}     // closed and replaced when notes change
	applying sync.Mutex        // one edit at a time, didChange before the answer

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
	AgentReview        bool // experimental.agentReview: agent/review instead of popups for edits
	AgentApprove       bool // experimental.agentApprove: agent/approve instead of popups
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
			},
			"window":       map[string]any{"workDoneProgress": caps.WorkDoneProgress},
			"experimental": map[string]any{"agentReview": caps.AgentReview, "agentApprove": caps.AgentApprove},
		},
		"initializationOptions": options,
	}
	var res json.RawMessage
	if err := e.Call(ctx, "initialize", params, &res); err != nil {
		return nil, err
	}
	return res, e.Notify(ctx, "initialized", map[string]any{})
}

// Open opens a file: the buffer takes the text and the server gets didOpen
// with version 1.
func (e *Editor) Open(ctx context.Context, path, text string) error {
	uri := FileURI(path)
	e.mu.Lock()
	e.buffers[uri] = &Buffer{Text: text, Version: 1, Open: true}
	e.mu.Unlock()
	return e.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "plaintext", "version": 1, "text": text}})
}

// Change replaces a range of an open buffer, as a user typing, and sends
// an incremental didChange.
func (e *Editor) Change(ctx context.Context, path string, r protocol.Range, text string) error {
	uri := FileURI(path)
	e.mu.Lock()
	b, ok := e.buffers[uri]
	if !ok || !b.Open {
		e.mu.Unlock()
		return fmt.Errorf("%s is not open", path)
	}
	next, err := ApplyEdits(b.Text, []protocol.TextEdit{{Range: r, NewText: text}})
	if err != nil {
		e.mu.Unlock()
		return err
	}
	b.Text, b.Dirty = next, true
	b.Version++
	v := b.Version
	e.mu.Unlock()
	return e.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": v},
		"contentChanges": []map[string]any{{"range": r, "text": text}},
	})
}

// Save writes a buffer to disk and sends didSave.
func (e *Editor) Save(ctx context.Context, path string) error {
	uri := FileURI(path)
	e.mu.Lock()
	b, ok := e.buffers[uri]
	if !ok {
		e.mu.Unlock()
		return fmt.Errorf("no buffer for %s", path)
	}
	text := b.Text
	b.Dirty = false
	e.mu.Unlock()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		return err
	}
	return e.Notify(ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
}

// Buffer returns a copy of the editor's buffer for path.
func (e *Editor) Buffer(path string) (Buffer, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b, ok := e.buffers[FileURI(path)]
	if !ok {
		return Buffer{}, false
	}
	return *b, true
}

// Notifications returns the notifications received so far with the given
// method ("" for all).
func (e *Editor) Notifications(method string) []Notification {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []Notification
	for _, n := range e.notes {
		if method == "" || n.Method == method {
			out = append(out, n)
		}
	}
	return out
}

// WaitFor blocks until some received notification satisfies match.
func (e *Editor) WaitFor(ctx context.Context, match func(Notification) bool) (Notification, error) {
	for {
		e.mu.Lock()
		for _, n := range e.notes {
			if match(n) {
				e.mu.Unlock()
				return n, nil
			}
		}
		ch := e.changed
		e.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Notification{}, fmt.Errorf("waiting for a notification: %w", ctx.Err())
		}
	}
}

// AppliedEdits returns the params of every workspace/applyEdit received.
func (e *Editor) AppliedEdits() []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]json.RawMessage(nil), e.edits...)
}

// ProgressTokens returns the tokens the server created.
func (e *Editor) ProgressTokens() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.tokens...)
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

// ApplyResult is the answer to workspace/applyEdit.
type ApplyResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// change is one documentChanges entry: a TextDocumentEdit or a resource
// operation, told apart by kind.
type change struct {
	Kind    string `json:"kind"`
	URI     string `json:"uri"`
	Options struct {
		IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
	} `json:"options"`
	TextDocument *struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

type applyParams struct {
	Label string `json:"label"`
	Edit  struct {
		Changes         map[string][]protocol.TextEdit `json:"changes"`
		DocumentChanges []change                       `json:"documentChanges"`
	} `json:"edit"`
}

// applyEdit applies a workspace edit of the server (workspace_edit.go).
func (e *Editor) applyEdit(ctx context.Context, raw json.RawMessage) ApplyResult {
	e.applying.Lock()
	defer e.applying.Unlock()
	e.mu.Lock()
	e.edits = append(e.edits, raw)
	e.mu.Unlock()
	if e.handlers.BeforeApplyEdit != nil {
		e.handlers.BeforeApplyEdit(ctx)
	}
	if e.handlers.RefuseEdits != "" {
		return ApplyResult{FailureReason: e.handlers.RefuseEdits}
	}
	return e.applyWorkspaceEdit(ctx, raw, true)
}

// FileURI is the file:// URI of a path.
func FileURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	return filepath.FromSlash(u.Path)
}
