package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Each test here shows one fault of go.lsp.dev/protocol v0.12.0 that a
// type of protocol_fixes.go works around, on the library's type, and the
// local type getting it right. When an upgrade fixes a fault its test
// fails: use the library's type then, and delete the local one.

// TextDocumentContentChangeEvent cannot tell a whole-text change from an
// insert at 0:0.
func TestLibraryContentChangeLosesTheWholeTextChange(t *testing.T) {
	whole := `{"text":"new text"}`
	insert := `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"new text"}`
	var a, b protocol.TextDocumentContentChangeEvent
	if err := json.Unmarshal([]byte(whole), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(insert), &b); err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("the library now tells a whole-text change (%+v) from an insert at 0:0 (%+v): use its type", a, b)
	}
	var ours []contentChange
	if err := decodeParams(json.RawMessage("["+whole+","+insert+"]"), &ours); err != nil {
		t.Fatal(err)
	}
	if ours[0].Range != nil || ours[1].Range == nil {
		t.Errorf("contentChange ranges: whole %v, insert %v", ours[0].Range, ours[1].Range)
	}
	if got := applyChanges("old", ours); got != "new textnew text" {
		t.Errorf("applied: %q", got)
	}
}

// ProgressToken marshals only through a pointer: the library's $/progress
// and create params send the token as {}.
func TestLibraryProgressTokenIsSentAsAnEmptyObject(t *testing.T) {
	lib, err := json.Marshal(protocol.ProgressParams{Token: *protocol.NewProgressToken("agent-lsp/1"), Value: 1})
	if err != nil {
		t.Fatal(err)
	}
	create, err := json.Marshal(protocol.WorkDoneProgressCreateParams{Token: *protocol.NewProgressToken("agent-lsp/1")})
	if err != nil {
		t.Fatal(err)
	}
	if string(lib) != `{"token":{},"value":1}` || string(create) != `{"token":{}}` {
		t.Fatalf("the library now sends its token: %s, %s: use ProgressParams and WorkDoneProgressCreateParams", lib, create)
	}
	ours, err := json.Marshal(progressParams{Token: json.RawMessage(`"agent-lsp/1"`), Value: 1})
	if err != nil {
		t.Fatal(err)
	}
	if string(ours) != `{"token":"agent-lsp/1","value":1}` {
		t.Errorf("progressParams: %s", ours)
	}
}

// ProgressToken decodes the string token "" as the number 0, so the token
// of an executeCommand would be echoed as another token.
func TestLibraryProgressTokenTurnsTheEmptyStringIntoZero(t *testing.T) {
	const params = `{"command":"agent.ask","arguments":[{"prompt":"hi"}],"workDoneToken":""}`
	var lib protocol.ExecuteCommandParams
	if err := json.Unmarshal([]byte(params), &lib); err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(lib.WorkDoneToken)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != "0" {
		t.Fatalf("the library now keeps the token \"\": %s: use ExecuteCommandParams", back)
	}
	var ours executeCommandParams
	if err := decodeParams(json.RawMessage(params), &ours); err != nil {
		t.Fatal(err)
	}
	if string(ours.WorkDoneToken) != `""` || len(ours.Arguments) != 1 || string(ours.Arguments[0]) != `{"prompt":"hi"}` {
		t.Errorf("executeCommandParams: token %s, arguments %s", ours.WorkDoneToken, ours.Arguments)
	}
}

// CancelParams decodes a number id as float64: it never matches the
// jsonrpc2.ID of the request to cancel.
func TestLibraryCancelParamsLosesTheIDType(t *testing.T) {
	const params = `{"id":7}`
	var lib protocol.CancelParams
	if err := json.Unmarshal([]byte(params), &lib); err != nil {
		t.Fatal(err)
	}
	if _, isFloat := lib.ID.(float64); !isFloat {
		t.Fatalf("the library now decodes the id as %T: check whether CancelParams can replace cancelRequestParams", lib.ID)
	}
	var ours cancelRequestParams
	if err := decodeParams(json.RawMessage(params), &ours); err != nil {
		t.Fatal(err)
	}
	var id jsonrpc2.ID
	if err := json.Unmarshal(ours.ID, &id); err != nil || id != jsonrpc2.NewNumberID(7) {
		t.Errorf("cancelRequestParams id %s → %v (%v)", ours.ID, id, err)
	}
}

// InitializeParams fails on a union of the specification it types as
// bool: semanticTokens.requests.range is boolean | {}.
func TestLibraryInitializeParamsFailsOnASpecifiedShape(t *testing.T) {
	const params = `{"rootUri":"file:///w","capabilities":{"textDocument":{"semanticTokens":{"requests":{"range":{},"full":{"delta":true}}}},` +
		`"workspace":{"applyEdit":true}}}`
	var lib protocol.InitializeParams
	if err := json.Unmarshal([]byte(params), &lib); err == nil {
		t.Fatal("the library now decodes semanticTokens.requests.range {}: check whether InitializeParams can replace initializeParams")
	}
	var ours initializeParams
	if err := decodeParams(json.RawMessage(params), &ours); err != nil {
		t.Fatal(err)
	}
	if ours.RootURI != "file:///w" || !ours.Capabilities.Workspace.ApplyEdit {
		t.Errorf("initializeParams: %+v", ours)
	}
}

// WorkspaceEdit's documentChanges is []TextDocumentEdit: a CreateFile in
// it is lost.
func TestLibraryWorkspaceEditCannotHoldCreateFile(t *testing.T) {
	const edit = `{"documentChanges":[{"kind":"create","uri":"file:///w/new.go"}]}`
	var lib protocol.WorkspaceEdit
	if err := json.Unmarshal([]byte(edit), &lib); err != nil {
		t.Fatal(err)
	}
	back, err := json.Marshal(lib)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(back), `"create"`) {
		t.Fatalf("the library's WorkspaceEdit now keeps a CreateFile (%s): use it", back)
	}
	ours, err := json.Marshal(workspaceEdit{DocumentChanges: []any{createFile("file:///w/new.go")}})
	if err != nil {
		t.Fatal(err)
	}
	if string(ours) != edit {
		t.Errorf("workspaceEdit: %s, want %s", ours, edit)
	}
}

// Where the library is right it is used, and sends what the local types
// it replaced sent: a TextDocumentEdit of a document the editor does not
// have open has version null, one of an open document its version.
func TestLibraryTextDocumentEditSendsNullAndNumberVersions(t *testing.T) {
	v := int32(4)
	edits := []protocol.TextEdit{{NewText: "x"}}
	for _, c := range []struct {
		edit protocol.TextDocumentEdit
		want string
	}{
		{docEdit("file:///w/a.go", nil, []protocol.TextEdit{}), `{"textDocument":{"uri":"file:///w/a.go","version":null},"edits":[]}`},
		{docEdit("file:///w/a.go", &v, edits), `{"textDocument":{"uri":"file:///w/a.go","version":4},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"newText":"x"}]}`},
	} {
		got, err := json.Marshal(c.edit)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("TextDocumentEdit %s, want %s", got, c.want)
		}
	}
}
