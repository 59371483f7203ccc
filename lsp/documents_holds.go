package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/tools"
)

var _ tools.TextHolder = (*editorDocuments)(nil)

// Holds implements tools.TextHolder: an open buffer (or the text of an
// unsaved edit) is compared in place, any other file on disk in chunks.
func (d *editorDocuments) Holds(ctx context.Context, doc tools.Doc) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	key := canonicalPath(doc.Path)
	if ov, ok := d.s.overlays.get(key); ok {
		return doc.Exists && ov.text == doc.Text, nil
	}
	d.mu.Lock()
	text, ok := d.shadow[key]
	d.mu.Unlock()
	if ok {
		return doc.Exists && text == doc.Text, nil
	}
	return d.disk.Holds(ctx, doc)
}

// current is the file's text and version now, for an edit computed
// against before: before itself when the file is not open and still holds
// it (compared without a copy), else Read. Reading a 20 MB file again
// here was a third copy at the edit's peak.
func (d *editorDocuments) current(ctx context.Context, key string, before tools.Doc) (tools.Doc, error) {
	if _, open := d.s.overlays.get(key); !open && before.Version == nil {
		if same, err := d.Holds(ctx, before); err == nil && same {
			return before, nil
		}
	}
	return d.Read(ctx, before.Path)
}
