package lsptest

import (
	"context"
	"fmt"
	"os"

	"go.lsp.dev/protocol"
)

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
