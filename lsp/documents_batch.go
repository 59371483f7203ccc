package lsp

import (
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

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

// ApplyAll makes several edits land as one workspace/applyEdit (so the
// editor's undo takes them all back at once); deletions are DeleteFile
// operations. A file that no longer holds what its edit was computed
// against fails the batch: the rewind that sends batches restores texts,
// it does not merge. What the editor cannot do falls back to the disk: all
// of it without applyEdit, new files without CreateFile, deletions without
// DeleteFile (or without documentChanges).
func (d *editorDocuments) ApplyAll(ctx context.Context, edits []tools.FileEdit) error {
	caps := d.s.caps()
	if !caps.applyEdit {
		return d.disk.ApplyAll(ctx, edits)
	}
	return d.land(ctx, caps, edits, false)
}

// land is the one way edits reach an editor with applyEdit, for Apply (a
// batch of one, rebase) and ApplyAll. With rebase an edit is rebased onto
// the file's current text, and an applyEdit the editor refused because
// the buffer moved on meanwhile gets one more try, rebased onto the newer
// text; without, the refusal is the answer.
func (d *editorDocuments) land(ctx context.Context, caps clientCaps, edits []tools.FileEdit, rebase bool) error {
	d.applyMu.Lock() // one edit at a time: each is computed against the last
	defer d.applyMu.Unlock()
	err := d.applyOnce(ctx, caps, edits, rebase)
	var race *versionRace
	if !errors.As(err, &race) {
		return err
	}
	if !rebase {
		return race.refusal
	}
	d.s.log.Info("the buffer changed while an edit was on its way; rebasing it again",
		zap.String("path", edits[0].Before.Path), zap.Int32("sent", race.sent), zap.Int32("now", race.now))
	err = d.applyOnce(ctx, caps, edits, rebase)
	if errors.As(err, &race) {
		return race.refusal
	}
	return err
}

// applyStep is one edit as it goes out: edit.Before is the file as it is
// now (Version: the open buffer's, the one the edit is computed against),
// edit.After the text the edit leaves.
type applyStep struct {
	edit     tools.FileEdit
	key, rel string
	uri      string
}

func (st applyStep) open() bool { return st.edit.Before.Version != nil }

// toDisk reports whether the editor cannot make the step: it lands on disk.
func (st applyStep) toDisk(caps clientCaps) bool {
	if st.edit.Delete {
		return !caps.deleteFiles || !caps.documentChanges
	}
	return !st.edit.Before.Exists && !caps.createFiles
}

// applyOnce reads every file once, sends what the editor can do as one
// workspace/applyEdit, waits for the open buffers to show it, and writes
// the rest to disk.
func (d *editorDocuments) applyOnce(ctx context.Context, caps clientCaps, edits []tools.FileEdit, rebase bool) error {
	var steps []applyStep
	var disk []tools.FileEdit
	for _, edit := range edits {
		st, needed, err := d.prepare(ctx, edit, rebase)
		switch {
		case err != nil:
			return err
		case !needed:
		case st.toDisk(caps):
			disk = append(disk, st.edit)
		default:
			steps = append(steps, st)
		}
	}
	if len(steps) > 0 {
		if err := d.sendGuarded(ctx, caps, edits, steps); err != nil {
			return err
		}
	}
	for _, st := range steps {
		// A deleted document closes (didClose) or not, as the editor likes:
		// only the text of an edited one is waited for.
		if st.open() && !st.edit.Delete {
			if err := d.confirm(ctx, st.key, *st.edit.Before.Version, st.edit.After); err != nil {
				return fmt.Errorf("%s: %w", st.rel, err)
			}
		}
		d.mu.Lock()
		if st.edit.Delete {
			delete(d.unsaved, st.key)
			delete(d.shadow, st.key)
		} else {
			d.unsaved[st.key] = true
			if !st.open() {
				d.shadow[st.key] = st.edit.After
			}
		}
		d.mu.Unlock()
	}
	if len(disk) == 0 {
		return nil
	}
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
	return nil
}

// prepare reads the edit's file and makes its step; needed is false when
// there is nothing to do (a deletion of a missing file, a buffer that
// already holds the result because the user made the same change).
func (d *editorDocuments) prepare(ctx context.Context, edit tools.FileEdit, rebase bool) (applyStep, bool, error) {
	path := edit.Before.Path
	key := canonicalPath(path)
	rel := d.ws.Rel(path)
	// One read: the text and the version it has must go together.
	current, err := d.current(ctx, key, edit.Before)
	if err != nil {
		return applyStep{}, false, err
	}
	after, known := edit.After, edit.Unchanged
	switch {
	case rebase && !edit.Delete:
		if current.Exists == edit.Before.Exists && current.Text == edit.Before.Text {
			break // nothing to rebase onto: the edit and what it knows hold
		}
		if after, err = tools.Rebase(rel, edit, current); err != nil {
			return applyStep{}, false, err
		}
		known = tools.Unchanged{} // merged into another text
	case current.Exists != edit.Before.Exists || current.Text != edit.Before.Text:
		return applyStep{}, false, fmt.Errorf("%s changed since it was read; read it again", rel)
	}
	uri := string(pathToURI(path))
	if current.Version != nil {
		if ov, ok := d.s.overlays.get(key); ok {
			uri = ov.uri
		}
	}
	st := applyStep{edit: tools.FileEdit{Tool: edit.Tool, Before: current, After: after, Delete: edit.Delete, Unchanged: known},
		key: key, rel: rel, uri: uri}
	if edit.Delete {
		return st, current.Exists, nil
	}
	return st, !current.Exists || after != current.Text, nil
}

// send makes the steps one workspace/applyEdit. A refusal while an open
// buffer had moved on from the version its edit names is a *versionRace.
func (d *editorDocuments) send(ctx context.Context, caps clientCaps, edits []tools.FileEdit, steps []applyStep) error {
	// The label names the change in the editor's undo history.
	target := d.ws.Rel(edits[0].Before.Path)
	if len(edits) > 1 {
		target = fmt.Sprintf("%d files", len(edits))
	}
	params := applyParams{Label: "agent: " + edits[0].Tool + " " + target, Edit: workspaceEditOf(caps, steps)}
	var res protocol.ApplyWorkspaceEditResponse
	if _, err := d.s.conn.Call(ctx, "workspace/applyEdit", params, &res); err != nil {
		return fmt.Errorf("workspace/applyEdit for %s: %w", target, err)
	}
	if res.Applied {
		return nil
	}
	reason := res.FailureReason
	if reason == "" {
		reason = "no reason given"
	}
	refusal := fmt.Errorf("the editor did not apply the edit to %s: %s", target, reason)
	for _, st := range steps {
		if sent := st.edit.Before.Version; sent != nil {
			if now, ok := d.s.overlays.get(st.key); ok && now.version != *sent {
				return &versionRace{sent: *sent, now: now.version, refusal: refusal}
			}
		}
	}
	return refusal
}

// workspaceEditOf is the WorkspaceEdit of the steps: documentChanges
// (CreateFile before a new file's edit, DeleteFile) when the client has
// them, else changes.
func workspaceEditOf(caps clientCaps, steps []applyStep) workspaceEdit {
	var we workspaceEdit
	for _, st := range steps {
		before := st.edit.Before
		if st.edit.Delete { // only with documentChanges (toDisk)
			we.DocumentChanges = append(we.DocumentChanges,
				deleteFile{Kind: "delete", URI: st.uri, Options: deleteFileOptions{IgnoreIfNotExists: true}})
			continue
		}
		edits := editorEdits(before.Text, st.edit.After, st.edit.Unchanged)
		if !caps.documentChanges {
			if we.Changes == nil {
				we.Changes = map[string][]protocol.TextEdit{}
			}
			we.Changes[st.uri] = nonNil(edits)
			continue
		}
		if !before.Exists {
			we.DocumentChanges = append(we.DocumentChanges, createFile(st.uri))
		}
		if len(edits) > 0 || before.Exists {
			we.DocumentChanges = append(we.DocumentChanges,
				docEdit(st.uri, before.Version, nonNil(edits)))
		}
	}
	return we
}
