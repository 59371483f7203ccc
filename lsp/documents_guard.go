package lsp

import (
	"context"
	"fmt"

	"github.com/agent-lsp/agent-lsp/tools"
)

// sendGuarded sends the steps through tools.WriteByPath: the editor saves
// by path (the VS Code extension saves every file an edit touched before
// it answers; CreateFile and DeleteFile act on the disk at once), so the
// running commands stay frozen and the paths checked until the editor
// answered. The path checked is the step's URI, for an open buffer the
// editor's own name of the file.
//
// What it does not cover: a buffer the editor writes later, when the user
// saves it (Neovim applies an edit to its buffers and answers; the write
// comes with :w, perhaps while a command runs).
func (d *editorDocuments) sendGuarded(ctx context.Context, caps clientCaps, edits []tools.FileEdit, steps []applyStep) error {
	paths := make([]string, 0, len(steps))
	for _, st := range steps {
		p, err := uriToPath(st.uri)
		if err != nil {
			return fmt.Errorf("%s: %w", st.rel, err)
		}
		paths = append(paths, p)
	}
	return tools.WriteByPath(ctx, d.commands, d.ws, paths, func() error {
		return d.send(ctx, caps, edits, steps)
	})
}
