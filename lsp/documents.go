package lsp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/tools"
)

// confirmTimeout bounds the wait for the didChange that shows an edit of an
// open document landed. Neovim 0.7.2 answers applied:true even when it
// skipped a stale edit, so the answer alone proves nothing.
var confirmTimeout = 2 * time.Second

// editorDocuments implements tools.Documents through the editor: reads see
// open buffers (unsaved changes included), edits go through
// workspace/applyEdit. A client without applyEdit gets the disk.
type editorDocuments struct {
	s    *server
	ws   *tools.Workspace
	disk *tools.DiskDocuments

	applyMu sync.Mutex // one edit at a time: each is computed against the last

	mu sync.Mutex // guards the maps
	// unsaved holds the files edited through the editor and not saved
	// since (didSave or didClose clears one).
	unsaved map[string]bool
	// shadow is the text of edited files the editor did not open for us
	// (no didOpen): the disk does not have it yet, the editor's buffer does.
	shadow map[string]string
}

var _ tools.Documents = (*editorDocuments)(nil)

func newEditorDocuments(s *server, ws *tools.Workspace) *editorDocuments {
	return &editorDocuments{s: s, ws: ws, disk: &tools.DiskDocuments{Workspace: ws},
		unsaved: map[string]bool{}, shadow: map[string]string{}}
}

// Read returns the open buffer's text and version, else the text of an
// unsaved edit, else the disk.
func (d *editorDocuments) Read(ctx context.Context, path string) (tools.Doc, error) {
	if err := ctx.Err(); err != nil {
		return tools.Doc{}, err
	}
	key := canonicalPath(path)
	if ov, ok := d.s.overlays.get(key); ok {
		// The size policy holds for open buffers as for the disk.
		if err := tools.CheckSize(d.ws.Rel(path), int64(len(ov.text)), false); err != nil {
			return tools.Doc{}, err
		}
		v := ov.version
		return tools.Doc{Path: path, Text: ov.text, Exists: true, Version: &v}, nil
	}
	d.mu.Lock()
	text, ok := d.shadow[key]
	d.mu.Unlock()
	if ok {
		return tools.Doc{Path: path, Text: text, Exists: true}, nil
	}
	return d.disk.Read(ctx, path)
}

// Apply makes the edit land in the editor (or on disk without applyEdit).
// The edit is rebased onto the buffer as it is now (rebase): what the user
// typed since the agent read the file stays. The workspace/applyEdit names
// the buffer version the edits were computed against; an editor refusing
// it because the buffer moved on meanwhile gets it once more, rebased
// onto the newer text.
func (d *editorDocuments) Apply(ctx context.Context, edit tools.FileEdit) error {
	if edit.Delete {
		// Deleting is a resource operation; the batch path speaks those.
		return d.ApplyAll(ctx, []tools.FileEdit{edit})
	}
	caps := d.s.caps()
	if !caps.applyEdit {
		return d.disk.Apply(ctx, edit)
	}
	d.applyMu.Lock()
	defer d.applyMu.Unlock()
	err := d.applyOnce(ctx, caps, edit)
	var race *versionRace
	if errors.As(err, &race) {
		d.s.log.Info("the buffer changed while an edit was on its way; rebasing it again",
			zap.String("path", edit.Before.Path), zap.Int32("sent", race.sent), zap.Int32("now", race.now))
		err = d.applyOnce(ctx, caps, edit)
		if errors.As(err, &race) {
			err = race.refusal
		}
	}
	return err
}

// applyOnce rebases the edit onto the current text and sends it.
func (d *editorDocuments) applyOnce(ctx context.Context, caps clientCaps, edit tools.FileEdit) error {
	path := edit.Before.Path
	key := canonicalPath(path)
	rel := d.ws.Rel(path)
	// One read: the text and the version it has must go together.
	current, err := d.current(ctx, key, edit.Before)
	if err != nil {
		return err
	}
	after, err := tools.Rebase(rel, edit, current)
	if err != nil {
		return err
	}
	if !current.Exists && !caps.createFiles {
		// The editor cannot create files: write the new file to disk.
		return d.disk.Apply(ctx, tools.FileEdit{Tool: edit.Tool, Before: current, After: after})
	}
	if current.Exists && after == current.Text {
		return nil // the buffer already holds the result (the user made the same change)
	}
	open := current.Version != nil
	uri := string(pathToURI(path))
	if open {
		if ov, ok := d.s.overlays.get(key); ok {
			uri = ov.uri
		}
	}
	edits := minimalEdits(current.Text, after)
	if current.Text == "" && len(edits) == 1 {
		// An empty buffer is one empty line to Neovim, and it drops that
		// line only when an edit reaches past it: end the insert at 1:0
		// (clients clamp a position past the end to the end, as VS Code
		// does) so a new file does not gain a trailing blank line.
		edits[0].Range.End = protocol.Position{Line: 1, Character: 0}
	}
	var we workspaceEdit
	switch {
	case caps.documentChanges:
		if !current.Exists {
			we.DocumentChanges = append(we.DocumentChanges, createFile(uri))
		}
		if len(edits) > 0 || current.Exists {
			we.DocumentChanges = append(we.DocumentChanges,
				docEdit(uri, current.Version, nonNil(edits)))
		}
	default:
		we.Changes = map[string][]protocol.TextEdit{uri: nonNil(edits)}
	}

	var res protocol.ApplyWorkspaceEditResponse
	params := applyParams{Label: "agent: " + edit.Tool + " " + rel, Edit: we}
	if _, err := d.s.conn.Call(ctx, "workspace/applyEdit", params, &res); err != nil {
		return fmt.Errorf("workspace/applyEdit for %s: %w", rel, err)
	}
	if !res.Applied {
		reason := res.FailureReason
		if reason == "" {
			reason = "no reason given"
		}
		refusal := fmt.Errorf("the editor did not apply the edit to %s: %s", rel, reason)
		if open {
			if now, ok := d.s.overlays.get(key); ok && now.version != *current.Version {
				return &versionRace{sent: *current.Version, now: now.version, refusal: refusal}
			}
		}
		return refusal
	}
	if open {
		if err := d.confirm(ctx, key, *current.Version, after); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
	}
	d.mu.Lock()
	d.unsaved[key] = true
	if !open {
		d.shadow[key] = after
	}
	d.mu.Unlock()
	return nil
}

// confirm waits for the didChange of an edited open document.
func (d *editorDocuments) confirm(ctx context.Context, key string, sent int32, after string) error {
	wctx, cancel := context.WithTimeout(ctx, confirmTimeout)
	defer cancel()
	var got overlay
	var stillOpen bool
	err := d.s.overlays.wait(wctx, key, func(ov overlay, open bool) bool {
		got, stillOpen = ov, open
		return !open || ov.text == after || ov.version != sent
	})
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the editor said it applied the edit, but its buffer did not change within %s (a stale edit skipped?)", confirmTimeout)
	case stillOpen && got.text != after:
		// The user typed at the same time; the edit is in there somewhere.
		d.s.log.Info("buffer changed beyond the agent's edit", zap.String("path", key))
	}
	return nil
}

// forget clears an edit's unsaved mark (didSave, didClose).
func (d *editorDocuments) forget(path string) {
	if d == nil {
		return
	}
	d.mu.Lock()
	dropped := len(d.shadow[path])
	delete(d.unsaved, path)
	delete(d.shadow, path)
	d.mu.Unlock()
	// The editor has the text now: a large file's copy is returned to the
	// system rather than kept mapped until the scavenger gets to it.
	tools.ReleaseMemory(dropped)
}

// Notes is tools.Env.Notes: which files edited through the editor are not
// on disk yet, for commands that read the disk (run_bash).
func (d *editorDocuments) Notes() string {
	d.mu.Lock()
	var rels []string
	for p := range d.unsaved {
		rels = append(rels, d.ws.Rel(p))
	}
	d.mu.Unlock()
	if len(rels) == 0 {
		return ""
	}
	slices.Sort(rels)
	return "Note: these files were edited in the editor but are not saved to disk yet: " + strings.Join(rels, ", ")
}

func nonNil(e []protocol.TextEdit) []protocol.TextEdit {
	if e == nil {
		return []protocol.TextEdit{}
	}
	return e
}

func (s *server) caps() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// docEdit is the TextDocumentEdit of uri: version nil is null, a
// document the editor does not have open. (The applyEdit params:
// protocol_fixes.go.)
func docEdit(uri string, version *int32, edits []protocol.TextEdit) protocol.TextDocumentEdit {
	return protocol.TextDocumentEdit{Edits: edits, TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
		TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: protocol.DocumentURI(uri)}, Version: version}}
}

// createFile is sent only for files that do not exist: Neovim 0.7.2 never
// creates the file with ignoreIfExists and truncates an existing one
// without options.
func createFile(uri string) protocol.CreateFile {
	return protocol.CreateFile{Kind: protocol.CreateResourceOperation, URI: protocol.DocumentURI(uri)}
}
