package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
)

// The local LSP wire types. The policy (doc.go, docs/design.md): wire
// types come from go.lsp.dev/protocol v0.12.0 wherever its type encodes
// what the LSP specification says; a type is declared here only when the
// library's is wrong on the wire, and its comment names the library's
// fault. protocol_fixes_test.go shows each fault on the library type, so
// an upgrade that fixes one fails that test and the local type can go.
// (Types the pinned library has none of, LSP 3.18's inline completion,
// are declared beside their feature: inline_completion.go.)

// didChangeParams is DidChangeTextDocumentParams with contentChange
// events.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

// contentChange is TextDocumentContentChangeEvent with a pointer range.
// Library fault: its Range is a value, so a change without a range (the
// whole text, in the specification) decodes as one at 0:0-0:0, an insert
// at the start.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

// progressParams is $/progress with the token kept raw. Library fault:
// ProgressToken marshals only through a pointer, so the value field of
// protocol.ProgressParams is sent as {}.
type progressParams struct {
	Token json.RawMessage `json:"token"`
	Value any             `json:"value"`
}

// progressCreate is window/workDoneProgress/create and
// window/workDoneProgress/cancel, the token kept raw: the same
// ProgressToken fault (WorkDoneProgressCreateParams and
// WorkDoneProgressCancelParams hold it by value), and the raw bytes are
// the key a cancel is matched by.
type progressCreate struct {
	Token json.RawMessage `json:"token"`
}

// executeCommandParams is ExecuteCommandParams with the token and the
// arguments kept raw. Library faults: ProgressToken decodes the string
// token "" as the number 0 (it cannot hold integer | string), and it is
// echoed in $/progress; Arguments is []interface{}, so each command's
// arguments would be decoded twice, numbers through float64.
type executeCommandParams struct {
	Command       string            `json:"command"`
	Arguments     []json.RawMessage `json:"arguments"`
	WorkDoneToken json.RawMessage   `json:"workDoneToken"`
}

// cancelRequestParams is $/cancelRequest's CancelParams with the id kept
// raw. Library fault: its ID is interface{}, which decodes a number id as
// float64: it never equals the jsonrpc2.ID of the request to cancel.
type cancelRequestParams struct {
	ID json.RawMessage `json:"id"`
}

// initializeParams is the part of InitializeParams the daemon reads.
// Library fault: its ClientCapabilities do not follow every union of the
// specification (semanticTokens.requests.range is boolean | {}; the
// library's is bool), and client capabilities grow with every LSP
// release: one shape the pinned types do not know would fail the whole
// initialize.
type initializeParams struct {
	RootURI          string `json:"rootUri"`
	RootPath         string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
	InitializationOptions json.RawMessage `json:"initializationOptions"`
	// ClientInfo names the editor, so a message can speak of its settings.
	ClientInfo *struct {
		Name string `json:"name"`
	} `json:"clientInfo"`
	Capabilities struct {
		Workspace struct {
			ApplyEdit     bool `json:"applyEdit"`
			WorkspaceEdit struct {
				DocumentChanges    bool     `json:"documentChanges"`
				ResourceOperations []string `json:"resourceOperations"`
			} `json:"workspaceEdit"`
			CodeLens struct {
				RefreshSupport bool `json:"refreshSupport"`
			} `json:"codeLens"`
		} `json:"workspace"`
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
		} `json:"window"`
		// Experimental is LSPAny: read leniently (experimentalCaps), so a
		// client's own shape there never fails initialize.
		Experimental json.RawMessage `json:"experimental"`
	} `json:"capabilities"`
}

// applyParams is ApplyWorkspaceEditParams with a workspaceEdit. (It is
// sent with conn.Call: the library's Client.ApplyEdit decodes the answer
// as a bool, not as the ApplyWorkspaceEditResponse it is.)
type applyParams struct {
	Label string        `json:"label,omitempty"`
	Edit  workspaceEdit `json:"edit"`
}

// workspaceEdit is WorkspaceEdit with documentChanges of any kind.
// Library fault: its DocumentChanges is []TextDocumentEdit, which cannot
// hold the CreateFile operations the specification allows there.
type workspaceEdit struct {
	Changes map[string][]protocol.TextEdit `json:"changes,omitempty"`
	// DocumentChanges holds protocol.TextDocumentEdit and
	// protocol.CreateFile values.
	DocumentChanges []any `json:"documentChanges,omitempty"`
}
