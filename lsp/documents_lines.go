package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/tools"
)

var _ tools.LineReader = (*editorDocuments)(nil)

// ReadLines implements tools.LineReader: a window of the open buffer (or of
// the text of an unsaved edit), sliced from the text already in memory
// without copying it, else the disk's window. A window is not subject to
// the size limit Read applies, so read_file with offset/limit still reads
// a buffer too large to edit; its whole text is handed back as the ReadLog
// base only within the limit.
func (d *editorDocuments) ReadLines(ctx context.Context, path string, req tools.LineRequest) (tools.LineWindow, error) {
	if err := ctx.Err(); err != nil {
		return tools.LineWindow{}, err
	}
	key := canonicalPath(path)
	text, ok := "", false
	if ov, open := d.s.overlays.get(key); open {
		text, ok = ov.text, true
	} else {
		d.mu.Lock()
		text, ok = d.shadow[key]
		d.mu.Unlock()
	}
	if !ok {
		return d.disk.ReadLines(ctx, path, req)
	}
	w := tools.WindowOf(text, req)
	w.Path = path
	if len(text) > tools.MaxFileBytes {
		w.Whole, w.HasWhole = "", false
	}
	return w, nil
}
