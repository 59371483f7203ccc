package lsp

import (
	"context"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// queueParams are agent/queue's: the session alone lists its queue;
// remove takes an item out, edit with prompt replaces an item's prompt.
type queueParams struct {
	sessionRef
	Remove *string `json:"remove,omitempty"`
	Edit   *string `json:"edit,omitempty"`
	Prompt *string `json:"prompt,omitempty"`
}

func (p queueParams) validate() error {
	switch {
	case p.Remove != nil && p.Edit != nil:
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: remove and edit together")
	case p.Edit != nil && p.Prompt == nil:
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: edit needs a prompt")
	case p.Edit == nil && p.Prompt != nil:
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: prompt without edit")
	}
	return nil
}

// queueItem is one message of a session's queue: a prompt sent with
// delivery "queue" that has not started, or a steer message not yet
// delivered.
type queueItem struct {
	ID       string `json:"id"`
	Prompt   string `json:"prompt"`
	Delivery string `json:"delivery"`
}

// queueResult is agent/queue's answer: the whole queue after the change.
type queueResult struct {
	Items []queueItem `json:"items"`
}

// Payloads of the queue's agent/update kinds.
type (
	// queueUpdate is the whole queue, after every change.
	queueUpdate struct {
		updateHeader
		Items []queueItem `json:"items"`
	}
	// steerUpdate: a steer message entered the history, just before the
	// model request that carries it.
	steerUpdate struct {
		updateHeader
		ID     string `json:"id"`
		Prompt string `json:"prompt"`
	}
)

func queueItems(items []control.QueueItem) []queueItem {
	out := make([]queueItem, len(items))
	for i, it := range items {
		out[i] = queueItem{ID: it.ID, Prompt: it.Prompt, Delivery: string(it.Delivery)}
	}
	return out
}

// queue serves agent/queue: list, remove or edit the session's queue.
func (s *server) queue(_ context.Context, sess *session, p queueParams) (queueResult, error) {
	var items []control.QueueItem
	var err error
	switch {
	case p.Remove != nil:
		items, err = sess.ctl.RemoveQueued(*p.Remove)
	case p.Edit != nil:
		items, err = sess.ctl.EditQueued(*p.Edit, *p.Prompt)
	default:
		items = sess.ctl.Queue()
	}
	if err != nil {
		return queueResult{}, controlError(err, sess.id)
	}
	return queueResult{Items: queueItems(items)}, nil
}

// dropQueues removes every loaded session's queued prompts (shutdown:
// nothing may start after it).
func (st *sessionStore) dropQueues() {
	for _, sess := range st.all() {
		sess.ctl.DropQueue()
	}
}
