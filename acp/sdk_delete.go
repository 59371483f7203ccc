package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// session/delete is ACP v1's (sessionCapabilities.delete), but
// acp-go-sdk v0.13.0, the newest the module proxy serves here, neither
// routes it nor has the capability's field (sdk_gaps.go, 8). Until it
// does, the connection's two streams are wrapped here, and only here:
// deleteShim answers session/delete requests before the SDK reads them,
// and protocolOut adds the capability to initialize's answer. Every other
// message passes byte for byte.

// methodSessionDelete is the method deleteShim answers.
const methodSessionDelete = "session/delete"

// protocolOut is the connection's output, shared by the SDK and
// deleteShim: one message is one Write (the SDK writes each whole), so a
// lock keeps them whole.
type protocolOut struct {
	mu       sync.Mutex
	w        io.Writer
	injected bool // the delete capability was added to initialize's answer
	offer    func() bool
}

func (o *protocolOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.injected && o.offer() && bytes.Contains(p, []byte(`"agentCapabilities":`)) {
		if i := bytes.Index(p, []byte(`"sessionCapabilities":{`)); i >= 0 {
			o.injected = true
			at := i + len(`"sessionCapabilities":{`)
			sep := []byte(",")
			if p[at] == '}' {
				sep = nil
			}
			msg := append(append(append(append([]byte(nil), p[:at]...), `"delete":{}`...), sep...), p[at:]...)
			if _, err := o.w.Write(msg); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return o.w.Write(p)
}

// deleteShim is the connection's input with the session/delete requests
// taken out and answered.
type deleteShim struct {
	r   *bufio.Reader
	out *protocolOut
	del func(id string) error
	buf []byte
}

func (d *deleteShim) Read(p []byte) (int, error) {
	for len(d.buf) == 0 {
		line, err := d.r.ReadBytes('\n')
		if len(line) > 0 && !d.answered(line) {
			d.buf = line
		}
		if err != nil {
			if len(d.buf) == 0 {
				return 0, err
			}
			break // the line first; the error at the next Read
		}
	}
	n := copy(p, d.buf)
	d.buf = d.buf[n:]
	return n, nil
}

// answered handles line when it is a session/delete request.
func (d *deleteShim) answered(line []byte) bool {
	if !bytes.Contains(line, []byte(`"`+methodSessionDelete+`"`)) {
		return false
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &req) != nil || req.Method != methodSessionDelete {
		return false
	}
	// Answered apart from the reading: closing a session may wait on the
	// client (a terminal released), whose answer this loop must read.
	go d.answer(req.ID, req.Params.SessionID) // owner: the shim; ends with the deletion
	return true
}

// answer deletes the session and answers the request id (none for a
// notification).
func (d *deleteShim) answer(id json.RawMessage, sessionID string) {
	err := d.del(sessionID)
	if len(id) == 0 {
		return
	}
	resp := map[string]any{"jsonrpc": "2.0", "id": id}
	switch {
	case err == nil:
		resp["result"] = map[string]any{}
	case sessionID == "":
		resp["error"] = invalidParams(errors.New("sessionId is required"))
	case errors.Is(err, control.ErrUnknownSession):
		resp["error"] = resourceNotFound(fmt.Sprintf("no session %q", sessionID))
	default:
		resp["error"] = map[string]any{"code": -32603, "message": "Internal error", "data": map[string]any{"error": err.Error()}}
	}
	data, _ := json.Marshal(resp)
	_, _ = d.out.Write(append(data, '\n'))
}

// deleteSession is session/delete: the session closed on this connection
// if open, then removed from the store.
func (a *server) deleteSession(id string) error {
	if id == "" {
		return errors.New("sessionId is required")
	}
	a.mu.Lock()
	s := a.sessions[sdk.SessionId(id)]
	delete(a.sessions, sdk.SessionId(id))
	a.mu.Unlock()
	if s != nil {
		_ = s.close()
	}
	return a.o.Control.DeleteSession(id)
}
