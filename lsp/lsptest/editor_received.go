package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
)

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

// Changed returns a channel closed when the next notification arrives, so
// that a test can wait (await.Until) for a condition over several of them.
func (e *Editor) Changed() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.changed
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

// CodeLensRefreshes is how many workspace/codeLens/refresh requests the
// server sent (answered only with Capabilities.CodeLensRefresh; Changed
// fires on each).
func (e *Editor) CodeLensRefreshes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lensRefreshes
}
