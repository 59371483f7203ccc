package main

import (
	"context"
	"sync"

	"github.com/agent-lsp/agent-lsp/bench/lspclient"
)

// lspClient plays an editor that applies every workspace/applyEdit to the
// file on disk, and then reports it saved, as an editor does once its
// buffer is written.
type lspClient struct {
	*lspclient.Client

	mu      sync.Mutex
	edited  []string // URIs written to disk and not yet reported saved
	editErr error    // the first applyEdit the client could not apply
}

func startClient(argv []string, dir string) (*lspClient, error) {
	c := &lspClient{}
	inner, err := lspclient.Start(argv, lspclient.Options{Dir: dir, OnRequest: c.onRequest})
	if err != nil {
		return nil, err
	}
	c.Client = inner
	return c, nil
}

// onRequest applies workspace/applyEdit to the disk; other requests get
// the quiet editor's answer.
func (c *lspClient) onRequest(m lspclient.Message) (any, bool) {
	if m.Method != "workspace/applyEdit" {
		return nil, false
	}
	uris, err := applyToDisk(m.Params)
	c.mu.Lock()
	if err != nil && c.editErr == nil {
		c.editErr = err
	}
	c.edited = append(c.edited, uris...)
	c.mu.Unlock()
	if err != nil {
		return map[string]any{"applied": false, "failureReason": err.Error()}, true
	}
	return map[string]any{"applied": true}, true
}

func (c *lspClient) applyError() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.editErr
}

// saveEdited sends didSave for the files written since the last call. It
// runs when the model gets the daemon's next request: by then the daemon
// has recorded the edit, so the save cannot overtake it.
func (c *lspClient) saveEdited() {
	c.mu.Lock()
	uris := c.edited
	c.edited = nil
	c.mu.Unlock()
	for _, u := range uris {
		_ = c.Notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}})
	}
}

// close shuts the daemon down politely, then for good.
func (c *lspClient) close() error { return c.Close(context.Background()) }
