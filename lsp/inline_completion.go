package lsp

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/agent/completion"
)

// Wire types of textDocument/inlineCompletion (LSP 3.18). They are
// declared here because the pinned go.lsp.dev/protocol v0.12.0 predates
// 3.18 and has none, and moving the pin breaks jsonrpc2 v0.10.0.
type inlineCompletionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position protocol.Position `json:"position"`
	Context  struct {
		TriggerKind            int `json:"triggerKind"` // inlineInvoked or inlineAutomatic
		SelectedCompletionInfo *struct {
			Range protocol.Range `json:"range"`
			Text  string         `json:"text"`
		} `json:"selectedCompletionInfo"`
	} `json:"context"`
}

// InlineCompletionTriggerKind.
const (
	inlineInvoked   = 1
	inlineAutomatic = 2
)

type inlineCompletionList struct {
	Items []inlineCompletionItem `json:"items"`
}

type inlineCompletionItem struct {
	InsertText string            `json:"insertText"`
	FilterText string            `json:"filterText,omitempty"`
	Range      *protocol.Range   `json:"range,omitempty"`
	Command    *protocol.Command `json:"command,omitempty"`
}

// maxOtherBuffers is how many other open buffers a query is offered; the
// engine quotes the first few of the document's language.
const maxOtherBuffers = 8

// inlineCompletion serves textDocument/inlineCompletion from the live
// buffer. It is async: $/cancelRequest ends it, and so does the next
// request for the same document (the engine's cancel-previous), both
// answering RequestCancelled. A failing model answers an empty list:
// agent/completionStatus says why, ghost text stays quiet.
func (s *server) inlineCompletion(ctx context.Context, p inlineCompletionParams) (inlineCompletionList, error) {
	s.mu.Lock()
	c, ws := s.settings.completion, s.ws
	s.mu.Unlock()
	if c == nil {
		return inlineCompletionList{}, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "inline completion is not configured (initializationOptions.completion)")
	}
	empty := inlineCompletionList{Items: []inlineCompletionItem{}}
	key, err := s.overlays.keyOf(p.TextDocument.URI)
	if err != nil {
		return empty, nil
	}
	ov, open := s.overlays.get(key)
	if !open {
		return empty, nil // no live text to complete
	}
	lang := completion.Language(ov.language, key)
	if !c.enabled(lang) {
		return empty, nil
	}
	starts := lineStarts(ov.text)
	q := completion.Query{Doc: ov.uri, Path: ws.Rel(key), Language: lang, Text: ov.text,
		Cursor: offsetOf(ov.text, starts, p.Position), Trigger: completion.Automatic,
		Others: s.otherBuffers(key, ws.Rel)}
	if p.Context.TriggerKind == inlineInvoked {
		q.Trigger = completion.Invoked
	}
	if sel := p.Context.SelectedCompletionInfo; sel != nil {
		q.Selected = &completion.Selected{Text: sel.Text,
			Start: offsetOf(ov.text, starts, sel.Range.Start), End: offsetOf(ov.text, starts, sel.Range.End)}
	}
	got, err := c.engine.Complete(ctx, q)
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, completion.ErrSuperseded)):
		return inlineCompletionList{}, errRequestCancelled
	case err != nil:
		return empty, nil
	}
	for _, sg := range got {
		rg := protocol.Range{Start: positionOf(ov.text, starts, sg.Start), End: positionOf(ov.text, starts, sg.End)}
		empty.Items = append(empty.Items, inlineCompletionItem{InsertText: sg.Text, Range: &rg})
	}
	return empty, nil
}

// otherBuffers are the open documents but key, those in key's directory
// first: a neighbour is likelier to share the names the model needs.
func (s *server) otherBuffers(key string, rel func(string) string) []completion.Buffer {
	s.overlays.mu.Lock()
	type open struct {
		path string
		ov   overlay
	}
	var all []open
	for p, ov := range s.overlays.byPath {
		if p != key {
			all = append(all, open{p, ov})
		}
	}
	s.overlays.mu.Unlock()
	dir := filepath.Dir(key)
	slices.SortFunc(all, func(a, b open) int {
		an, bn := filepath.Dir(a.path) != dir, filepath.Dir(b.path) != dir
		if an != bn {
			if an {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.path, b.path)
	})
	var out []completion.Buffer
	for _, o := range all[:min(len(all), maxOtherBuffers)] {
		out = append(out, completion.Buffer{Path: rel(o.path), Language: completion.Language(o.ov.language, o.path), Text: o.ov.text})
	}
	return out
}
