package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
)

// progress reports one prompt's work-done progress ($/progress begin,
// report, end) on the request's workDoneToken or on a token the server
// created. A nil *progress reports nothing, so callers need no checks.
type progress struct {
	s     *server
	token json.RawMessage

	mu    sync.Mutex
	last  string
	ended bool
}

// startProgress begins progress for a request: on given when the client
// sent a workDoneToken, else on a token created with
// window/workDoneProgress/create when the client supports it, else none.
// cancel, when the user cancels the progress in the editor, cancels the work.
func (s *server) startProgress(ctx context.Context, given json.RawMessage, title string, cancel context.CancelCauseFunc) *progress {
	token := given
	if !validID(token) {
		token = nil
		if !s.caps().progress {
			return nil
		}
		name := fmt.Sprintf("agent-lsp/%d", s.progressTokens.Add(1))
		token, _ = json.Marshal(name)
		if _, err := s.conn.Call(ctx, "window/workDoneProgress/create", progressCreate{Token: token}, nil); err != nil {
			s.log.Debug("work-done progress refused", zap.Error(err))
			return nil
		}
	}
	p := &progress{s: s, token: token, last: "Thinking"}
	s.progressCancels.Store(string(token), cancel)
	s.notify("$/progress", progressParams{Token: token, Value: protocol.WorkDoneProgressBegin{
		Kind: protocol.WorkDoneProgressKindBegin, Title: title, Cancellable: true, Message: p.last}})
	return p
}

// report sends a message unless it is the one already shown.
func (p *progress) report(msg string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended || msg == p.last {
		return
	}
	p.last = msg
	p.s.notify("$/progress", progressParams{Token: p.token, Value: protocol.WorkDoneProgressReport{
		Kind: protocol.WorkDoneProgressKindReport, Message: msg}})
}

// end closes the progress; later reports are dropped.
func (p *progress) end(msg string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return
	}
	p.ended = true
	p.s.progressCancels.Delete(string(p.token))
	p.s.notify("$/progress", progressParams{Token: p.token, Value: protocol.WorkDoneProgressEnd{
		Kind: protocol.WorkDoneProgressKindEnd, Message: msg}})
}

// progressCancel handles window/workDoneProgress/cancel: the user pressed
// cancel on the progress the editor shows.
func (s *server) progressCancel(_ context.Context, p progressCreate) (noResult, error) {
	if c, ok := s.progressCancels.Load(string(p.Token)); ok {
		c.(context.CancelCauseFunc)(errCancelledByClient)
	}
	return noResult{}, nil
}

type progressKey struct{}

func withProgress(ctx context.Context, p *progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// progressFrom returns the progress of the prompt ctx belongs to (the
// approver runs in it), or nil.
func progressFrom(ctx context.Context) *progress {
	p, _ := ctx.Value(progressKey{}).(*progress)
	return p
}

// runningMessage is the progress message while a tool runs.
func runningMessage(tool string) string {
	if tool == "" {
		return "Thinking"
	}
	return "Running " + tool
}

// streamingMessage is the progress message while the model streams: its
// reasoning is thinking, its answer is being written (a status that said
// "Thinking" while the answer streamed in told the user nothing).
func streamingMessage(kind agent.EventKind) string {
	if kind == agent.EventText {
		return "Writing the answer"
	}
	return "Thinking"
}
