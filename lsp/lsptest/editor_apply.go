package lsptest

import (
	"context"
	"encoding/json"
	"slices"
	"sort"

	"go.lsp.dev/protocol"
)

// ApplyResult is the answer to workspace/applyEdit.
type ApplyResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
}

// change is one documentChanges entry: a TextDocumentEdit or a resource
// operation, told apart by kind.
type change struct {
	Kind    string `json:"kind"`
	URI     string `json:"uri"`
	Options struct {
		IgnoreIfNotExists bool `json:"ignoreIfNotExists"`
	} `json:"options"`
	TextDocument *struct {
		URI     string `json:"uri"`
		Version *int32 `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

type applyParams struct {
	Label string `json:"label"`
	Edit  struct {
		Changes         map[string][]protocol.TextEdit `json:"changes"`
		DocumentChanges []change                       `json:"documentChanges"`
	} `json:"edit"`
}

// applyEdit applies a workspace edit of the server (workspace_edit.go).
func (e *Editor) applyEdit(ctx context.Context, raw json.RawMessage) ApplyResult {
	e.applying.Lock()
	defer e.applying.Unlock()
	e.mu.Lock()
	e.edits = append(e.edits, raw)
	e.mu.Unlock()
	if e.handlers.BeforeApplyEdit != nil {
		e.handlers.BeforeApplyEdit(ctx)
	}
	if e.handlers.RefuseEdits != "" {
		return ApplyResult{FailureReason: e.handlers.RefuseEdits}
	}
	res := e.applyWorkspaceEdit(ctx, raw, true)
	if res.Applied && e.handlers.SaveEdits {
		for _, uri := range savedURIs(raw) {
			if err := e.Save(ctx, uriPath(uri)); err != nil {
				return ApplyResult{FailureReason: "saving: " + err.Error()}
			}
		}
	}
	return res
}

// savedURIs are the files a workspace edit leaves with text: edited or
// created, not deleted.
func savedURIs(raw json.RawMessage) []string {
	var p applyParams
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	seen := map[string]bool{}
	var uris []string
	add := func(uri string) {
		if !seen[uri] {
			seen[uri] = true
			uris = append(uris, uri)
		}
	}
	for _, c := range p.Edit.DocumentChanges {
		switch {
		case c.Kind == "create":
			add(c.URI)
		case c.Kind == "delete":
			delete(seen, c.URI)
			uris = slices.DeleteFunc(uris, func(u string) bool { return u == c.URI })
		case c.TextDocument != nil:
			add(c.TextDocument.URI)
		}
	}
	for uri := range p.Edit.Changes {
		add(uri)
	}
	sort.Strings(uris)
	return uris
}
