package lsptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode/utf16"

	"go.lsp.dev/protocol"
)

// applyWorkspaceEdit applies a workspace edit to the buffers, all or
// nothing: text edits (documentChanges or changes), CreateFile and
// DeleteFile. It sends didChange for each open buffer it changed, and
// didClose for each open buffer it deleted, before answering. With
// fromServer, the edit's inverse is kept for Undo, as an editor's undo
// history would.
func (e *Editor) applyWorkspaceEdit(ctx context.Context, raw json.RawMessage, fromServer bool) ApplyResult {
	var p applyParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return ApplyResult{FailureReason: "bad edit: " + err.Error()}
	}
	type docEdit struct {
		uri      string
		version  *int32
		edits    []protocol.TextEdit
		create   bool
		delete   bool
		ifExists bool // DeleteFile's ignoreIfNotExists
	}
	var steps []docEdit
	for _, c := range p.Edit.DocumentChanges {
		switch {
		case c.Kind == "create":
			steps = append(steps, docEdit{uri: c.URI, create: true})
		case c.Kind == "delete":
			steps = append(steps, docEdit{uri: c.URI, delete: true, ifExists: c.Options.IgnoreIfNotExists})
		case c.Kind != "":
			return ApplyResult{FailureReason: "unsupported resource operation " + c.Kind}
		case c.TextDocument != nil:
			steps = append(steps, docEdit{uri: c.TextDocument.URI, version: c.TextDocument.Version, edits: c.Edits})
		}
	}
	uris := make([]string, 0, len(p.Edit.Changes))
	for uri := range p.Edit.Changes {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	for _, uri := range uris {
		steps = append(steps, docEdit{uri: uri, edits: p.Edit.Changes[uri]})
	}

	e.mu.Lock()
	// next holds the touched documents after the edit (nil: deleted);
	// prior, each one's state before it, for the inverse.
	next := map[string]*Buffer{}
	prior := map[string]*Buffer{}
	var touched []string
	current := func(uri string) (*Buffer, error) {
		if b, ok := next[uri]; ok {
			if b == nil {
				return nil, os.ErrNotExist
			}
			return b, nil
		}
		if b, ok := e.buffers[uri]; ok {
			c := *b
			return &c, nil
		}
		// Not in a buffer yet: load it from disk, as an editor does.
		data, err := os.ReadFile(uriPath(uri))
		if err != nil {
			return nil, err
		}
		return &Buffer{Text: string(data)}, nil
	}
	touch := func(uri string) {
		if _, ok := prior[uri]; ok {
			return
		}
		touched = append(touched, uri)
		if b, err := current(uri); err == nil {
			c := *b
			prior[uri] = &c
		} else {
			prior[uri] = nil
		}
	}
	fail := func(reason string) ApplyResult {
		e.mu.Unlock()
		return ApplyResult{FailureReason: reason}
	}
	for _, s := range steps {
		touch(s.uri)
		switch {
		case s.create:
			if b, err := current(s.uri); err == nil && (b.Open || fileExists(s.uri)) {
				return fail("CreateFile for an existing file " + s.uri)
			}
			next[s.uri] = &Buffer{Dirty: true}
			continue
		case s.delete:
			if _, err := current(s.uri); err != nil {
				if s.ifExists {
					continue
				}
				return fail("DeleteFile for a missing file " + s.uri)
			}
			next[s.uri] = nil
			continue
		}
		b, err := current(s.uri)
		if err != nil {
			return fail(err.Error())
		}
		if s.version != nil && (!b.Open || *s.version != b.Version) {
			return fail(fmt.Sprintf("version %d of %s is not the buffer's %d", *s.version, s.uri, b.Version))
		}
		text, err := ApplyEdits(b.Text, s.edits)
		if err != nil {
			return fail(err.Error())
		}
		b.Text, b.Dirty = text, true
		if b.Open {
			b.Version++
		}
		next[s.uri] = b
	}
	type notice struct {
		method string
		params map[string]any
	}
	var notices []notice
	var removals []string
	for _, uri := range touched {
		b, ok := next[uri]
		if !ok {
			continue
		}
		if b == nil {
			if old, open := e.buffers[uri]; open && old.Open {
				notices = append(notices, notice{"textDocument/didClose", map[string]any{
					"textDocument": map[string]any{"uri": uri}}})
			}
			delete(e.buffers, uri)
			removals = append(removals, uriPath(uri))
			continue
		}
		e.buffers[uri] = b
		if b.Open {
			// Whole text: the incremental path is exercised by Change.
			notices = append(notices, notice{"textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": b.Version},
				"contentChanges": []map[string]any{{"text": b.Text}},
			}})
		}
	}
	if fromServer {
		e.undo = append(e.undo, inverseEdit(touched, prior, next))
	}
	e.mu.Unlock()
	for _, path := range removals {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return ApplyResult{FailureReason: err.Error()}
		}
	}
	for _, n := range notices {
		if err := e.Notify(ctx, n.method, n.params); err != nil {
			return ApplyResult{FailureReason: err.Error()}
		}
	}
	return ApplyResult{Applied: true}
}

func fileExists(uri string) bool {
	_, err := os.Stat(uriPath(uri))
	return err == nil
}

// inverseEdit is the workspace edit that takes the touched documents from
// next back to prior: deleting what was created, creating what was
// deleted, and putting the whole old text back into what was edited.
func inverseEdit(touched []string, prior, next map[string]*Buffer) json.RawMessage {
	var changes []any
	for _, uri := range touched {
		before, after := prior[uri], next[uri]
		switch {
		case before == nil && after == nil:
		case before == nil:
			changes = append(changes, map[string]any{"kind": "delete", "uri": uri,
				"options": map[string]any{"ignoreIfNotExists": true}})
		case after == nil:
			changes = append(changes, map[string]any{"kind": "create", "uri": uri},
				textEdit(uri, "", before.Text))
		default:
			changes = append(changes, textEdit(uri, after.Text, before.Text))
		}
	}
	raw, _ := json.Marshal(map[string]any{"label": "undo", "edit": map[string]any{"documentChanges": changes}})
	return raw
}

// textEdit replaces the whole of text with repl.
func textEdit(uri, text, repl string) map[string]any {
	return map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": nil},
		"edits":        []protocol.TextEdit{{Range: protocol.Range{End: EndPosition(text)}, NewText: repl}},
	}
}

// EndPosition is the position just past the last character of text.
func EndPosition(text string) protocol.Position {
	line := strings.Count(text, "\n") + strings.Count(text, "\r") - strings.Count(text, "\r\n")
	last := text
	if i := strings.LastIndexAny(text, "\r\n"); i >= 0 {
		last = text[i+1:]
	}
	return protocol.Position{Line: uint32(line), Character: uint32(len(utf16.Encode([]rune(last))))}
}

// Inverses returns the inverse of every workspace/applyEdit the server
// sent that has not been undone, oldest first.
func (e *Editor) Inverses() []json.RawMessage {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]json.RawMessage(nil), e.undo...)
}

// Undo undoes the last workspace/applyEdit the server sent, as the
// editor's undo would: it applies the inverse edit recorded when that edit
// landed, and tells the server (didChange, didClose).
func (e *Editor) Undo(ctx context.Context) error {
	e.applying.Lock()
	defer e.applying.Unlock()
	e.mu.Lock()
	if len(e.undo) == 0 {
		e.mu.Unlock()
		return errors.New("nothing to undo")
	}
	inv := e.undo[len(e.undo)-1]
	e.undo = e.undo[:len(e.undo)-1]
	e.mu.Unlock()
	if res := e.applyWorkspaceEdit(ctx, inv, false); !res.Applied {
		return fmt.Errorf("undo: %s", res.FailureReason)
	}
	return nil
}
