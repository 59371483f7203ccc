package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/tools"
)

var _ tools.BatchApplier = (*editorDocuments)(nil)

// deleteFile is a DeleteFile resource operation. ignoreIfNotExists: a file
// the agent created may live only in the editor's buffer (lsptest, and
// VS Code until it saves), and Neovim asserts on a missing file without it.
type deleteFile struct {
	Kind    string            `json:"kind"`
	URI     string            `json:"uri"`
	Options deleteFileOptions `json:"options"`
}

type deleteFileOptions struct {
	IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
}

// batchStep is one edit of a batch as it goes out.
type batchStep struct {
	edit tools.FileEdit
	key  string
	open bool
	sent int32 // the open buffer's version the edit was computed against
}

// ApplyAll makes several edits land as one workspace/applyEdit (so the
// editor's undo takes them all back at once); deletions are DeleteFile
// operations. What the editor cannot do falls back to the disk: all of it
// without applyEdit, new files without CreateFile, deletions without
// DeleteFile (or without documentChanges).
func (d *editorDocuments) ApplyAll(ctx context.Context, edits []tools.FileEdit) error {
	caps := d.s.caps()
	if !caps.applyEdit {
		return d.disk.ApplyAll(ctx, edits)
	}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()

	var (
		we    workspaceEdit
		steps []batchStep
		disk  []tools.FileEdit
		label string
	)
	for _, edit := range edits {
		path := edit.Before.Path
		key := canonicalPath(path)
		rel := d.ws.Rel(path)
		current, err := d.Read(ctx, path)
		if err != nil {
			return err
		}
		if current.Exists != edit.Before.Exists || current.Text != edit.Before.Text {
			return fmt.Errorf("%s changed since it was read; read it again", rel)
		}
		if label == "" {
			label = fmt.Sprintf("agent: %s %s", edit.Tool, rel)
		} else {
			label = fmt.Sprintf("agent: %s %d files", edit.Tool, len(edits))
		}
		ov, open := d.s.overlays.get(key)
		uri := string(pathToURI(path))
		var version *int32
		if open {
			uri, version = ov.uri, &ov.version
		}
		switch {
		case edit.Delete && !current.Exists:
			continue
		case edit.Delete && (!caps.deleteFiles || !caps.documentChanges):
			disk = append(disk, edit)
			continue
		case edit.Delete:
			we.DocumentChanges = append(we.DocumentChanges,
				deleteFile{Kind: "delete", URI: uri, Options: deleteFileOptions{IgnoreIfNotExists: true}})
		case !current.Exists && !caps.createFiles:
			disk = append(disk, edit)
			continue
		default:
			te := minimalEdits(current.Text, edit.After)
			if current.Text == "" && len(te) == 1 {
				te[0].Range.End = protocol.Position{Line: 1, Character: 0} // as in Apply: no blank line in Neovim
			}
			if !caps.documentChanges {
				if we.Changes == nil {
					we.Changes = map[string][]protocol.TextEdit{}
				}
				we.Changes[uri] = nonNil(te)
				break
			}
			if !current.Exists {
				we.DocumentChanges = append(we.DocumentChanges, createFile(uri))
			}
			we.DocumentChanges = append(we.DocumentChanges,
				docEdit(uri, version, nonNil(te)))
		}
		steps = append(steps, batchStep{edit: edit, key: key, open: open, sent: ov.version})
	}
	if len(steps) > 0 {
		var res protocol.ApplyWorkspaceEditResponse
		if _, err := d.s.conn.Call(ctx, "workspace/applyEdit", applyParams{Label: label, Edit: we}, &res); err != nil {
			return fmt.Errorf("workspace/applyEdit (%s): %w", label, err)
		}
		if !res.Applied {
			reason := res.FailureReason
			if reason == "" {
				reason = "no reason given"
			}
			return fmt.Errorf("the editor did not apply %q: %s", label, reason)
		}
	}
	for _, st := range steps {
		// A deleted document closes (didClose) or not, as the editor likes:
		// only the text of an edited one is waited for.
		if st.open && !st.edit.Delete {
			if err := d.confirm(ctx, st.key, st.sent, st.edit.After); err != nil {
				return fmt.Errorf("%s: %w", d.ws.Rel(st.edit.Before.Path), err)
			}
		}
		d.mu.Lock()
		if st.edit.Delete {
			delete(d.unsaved, st.key)
			delete(d.shadow, st.key)
		} else {
			d.unsaved[st.key] = true
			if !st.open {
				d.shadow[st.key] = st.edit.After
			}
		}
		d.mu.Unlock()
	}
	if len(disk) > 0 {
		if err := d.disk.ApplyAll(ctx, disk); err != nil {
			return err
		}
		d.mu.Lock()
		for _, e := range disk {
			key := canonicalPath(e.Before.Path)
			delete(d.unsaved, key)
			delete(d.shadow, key)
		}
		d.mu.Unlock()
	}
	return nil
}
