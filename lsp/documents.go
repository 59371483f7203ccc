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
	// commands are frozen while the editor writes an edit (guard); nil
	// when no runner of ours runs commands.
	commands tools.CommandFreezer

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

func newEditorDocuments(s *server, ws *tools.Workspace, commands *tools.ProcessRunner) *editorDocuments {
	d := &editorDocuments{s: s, ws: ws, disk: &tools.DiskDocuments{Workspace: ws},
		unsaved: map[string]bool{}, shadow: map[string]string{}}
	if commands != nil {
		d.commands = commands
	}
	return d
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

// Apply makes the edit land in the editor (or on disk without applyEdit):
// a batch of one (land) whose edit is rebased onto the buffer as it is now
// (tools.Rebase), so what the user typed since the agent read the file
// stays. A deletion is not rebased: it needs the file as it was read.
func (d *editorDocuments) Apply(ctx context.Context, edit tools.FileEdit) error {
	caps := d.s.caps()
	if !caps.applyEdit {
		return d.disk.Apply(ctx, edit)
	}
	return d.land(ctx, caps, []tools.FileEdit{edit}, true)
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
// on disk yet, for commands that read the disk (run_bash). A file whose
// disk holds the editor's text is saved, whatever order the editor saved
// and answered in (savedSince).
func (d *editorDocuments) Notes() string {
	var rels []string
	for _, p := range d.savedSince() {
		rels = append(rels, d.ws.Rel(p))
	}
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
