package lsptest

import (
	"context"
	"encoding/json"

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
	return e.applyWorkspaceEdit(ctx, raw, true)
}
