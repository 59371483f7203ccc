package lsp

import (
	"context"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// overlay is the editor's text of an open document, which may differ from
// the disk (unsaved changes).
type overlay struct {
	uri     string
	version int32
	text    string

	language string // didOpen's languageId (inline completion's enable list)
}

// overlays holds the open documents by canonical path.
type overlays struct {
	mu      sync.Mutex
	byPath  map[string]overlay
	keys    map[string]string // URI → path key of open documents (no symlink walk per keystroke)
	changed chan struct{}     // closed and replaced on every change: a broadcast
}

func newOverlays() *overlays {
	return &overlays{byPath: map[string]overlay{}, keys: map[string]string{}, changed: make(chan struct{})}
}

func (o *overlays) get(path string) (overlay, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ov, ok := o.byPath[path]
	return ov, ok
}

// set stores (or with ok false removes) an overlay and wakes the waiters.
func (o *overlays) set(path string, ov overlay, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if ok {
		o.byPath[path] = ov
		o.keys[ov.uri] = path
	} else {
		delete(o.keys, o.byPath[path].uri)
		delete(o.byPath, path)
	}
	close(o.changed)
	o.changed = make(chan struct{})
}

// update applies f to an open document's overlay.
func (o *overlays) update(path string, f func(*overlay) error) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	ov, ok := o.byPath[path]
	if !ok {
		return fmt.Errorf("document %s is not open", path)
	}
	if err := f(&ov); err != nil {
		return err
	}
	o.byPath[path] = ov
	close(o.changed)
	o.changed = make(chan struct{})
	return nil
}

// wait blocks until done reports true for the document's overlay (open or
// not), or ctx ends.
func (o *overlays) wait(ctx context.Context, path string, done func(ov overlay, open bool) bool) error {
	for {
		o.mu.Lock()
		ov, open := o.byPath[path]
		changed := o.changed
		o.mu.Unlock()
		if done(ov, open) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// keyOf returns the overlay key of a URI: remembered for open documents,
// computed otherwise.
func (o *overlays) keyOf(uri string) (string, error) {
	o.mu.Lock()
	key, ok := o.keys[uri]
	o.mu.Unlock()
	if ok {
		return key, nil
	}
	return documentPath(uri)
}

// documentPath maps a document URI to its overlay key.
func documentPath(uri string) (string, error) {
	path, err := uriToPath(uri)
	if err != nil {
		return "", err
	}
	return canonicalPath(path), nil
}

// The text synchronisation notifications. Their params are the library's
// but didChange's (protocol_fixes.go: contentChange).

func (s *server) didOpen(ctx context.Context, p protocol.DidOpenTextDocumentParams) (noResult, error) {
	if texts, ok := frameTexts(ctx); ok && len(texts) == 1 {
		p.TextDocument.Text = texts[0]
	}
	path, err := documentPath(string(p.TextDocument.URI))
	if err != nil {
		s.log.Debug("not tracking a document", zap.Error(err))
		return noResult{}, nil
	}
	s.overlays.set(path, overlay{uri: string(p.TextDocument.URI), version: p.TextDocument.Version, text: p.TextDocument.Text,
		language: string(p.TextDocument.LanguageID)}, true)
	s.release.handled(len(p.TextDocument.Text))
	return noResult{}, nil
}

func (s *server) didChange(ctx context.Context, p didChangeParams) (noResult, error) {
	if texts, ok := frameTexts(ctx); ok && len(texts) == len(p.ContentChanges) {
		for i := range texts {
			p.ContentChanges[i].Text = texts[i]
		}
	}
	path, err := s.overlays.keyOf(string(p.TextDocument.URI))
	if err != nil {
		return noResult{}, nil
	}
	return noResult{}, s.overlays.update(path, func(ov *overlay) error {
		ov.text = applyChanges(ov.text, p.ContentChanges)
		ov.version = p.TextDocument.Version
		s.release.handled(len(ov.text)) // the text it replaced is garbage
		return nil
	})
}

// applyChanges applies content changes in order, each against the text
// the previous one produced.
func applyChanges(text string, changes []contentChange) string {
	for _, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		start := offsetAt(text, c.Range.Start)
		end := offsetAt(text, c.Range.End)
		if end < start {
			start, end = end, start
		}
		text = text[:start] + c.Text + text[end:]
	}
	return text
}

func (s *server) didClose(_ context.Context, p protocol.DidCloseTextDocumentParams) (noResult, error) {
	path, err := s.overlays.keyOf(string(p.TextDocument.URI))
	if err != nil {
		return noResult{}, nil
	}
	closed, _ := s.overlays.get(path)
	s.overlays.set(path, overlay{}, false)
	s.release.handled(len(closed.text))
	// A buffer closed without saving drops the agent's edits with it.
	s.documents().forget(path)
	return noResult{}, nil
}

func (s *server) didSave(_ context.Context, p protocol.DidSaveTextDocumentParams) (noResult, error) {
	path, err := s.overlays.keyOf(string(p.TextDocument.URI))
	if err != nil {
		return noResult{}, nil
	}
	s.documents().forget(path)
	return noResult{}, nil
}

func (s *server) documents() *editorDocuments {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs
}
