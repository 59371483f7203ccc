package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func inlineParams(path string, pos protocol.Position, kind int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": lsptest.FileURI(path)}, "position": pos,
		"context": map[string]any{"triggerKind": kind}}
}

// TestInlineCompletionCancelRequest: $/cancelRequest closes the model's
// stream and the request answers RequestCancelled.
func TestInlineCompletionCancelRequest(t *testing.T) {
	s := startInline(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "never", Stall: providertest.Forever}}}, nil)
	path, pos := s.openAt("a.go", "package main\n\nfunc f() {\n\t|\n}\n")
	id, res := s.ed.CallAsync(ctx(t), "textDocument/inlineCompletion", inlineParams(path, pos, invoked))
	if err := s.model.WaitRequests(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := s.ed.Notify(ctx(t), "$/cancelRequest", map[string]any{"id": id}); err != nil {
		t.Fatal(err)
	}
	if r := <-res; r.Err == nil || !strings.Contains(r.Err.Error(), "cancelled") {
		t.Errorf("answered %s, %v; want RequestCancelled", r.Result, r.Err)
	}
	select {
	case <-s.model.FIMRequests()[0].Closed():
	case <-ctx(t).Done():
		t.Fatal("the HTTP request was never closed")
	}
}

// TestInlineCompletionModelError: a failing model answers no items and
// says why in agent/completionStatus.
func TestInlineCompletionModelError(t *testing.T) {
	s := startInline(t, providertest.Script{{Fault: &providertest.Fault{Status: 400, Body: `{"error":{"message":"model not found"}}`}}}, nil)
	path, pos := s.openAt("a.go", "package main\n\n|\n")
	if l := s.inline(path, pos, invoked); len(l.Items) != 0 {
		t.Errorf("items from a failing model: %+v", l)
	}
	n, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool {
		return n.Method == "agent/completionStatus" && strings.Contains(string(n.Params), `"error"`)
	})
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ URI, State, Message string }
	if err := json.Unmarshal(n.Params, &st); err != nil {
		t.Fatal(err)
	}
	if st.URI != lsptest.FileURI(path) || !strings.Contains(st.Message, "model not found") {
		t.Errorf("status = %+v", st)
	}
}

// TestInlineCompletionSelectedItem: with a completion item selected, the
// model continues the text as if it were accepted, and the suggestion
// starts with the item (LSP 3.18 requires that of the range and text).
func TestInlineCompletionSelectedItem(t *testing.T) {
	s := startInline(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: `("/", index)`}}}, nil)
	path, pos := s.openAt("a.go", "package main\n\nfunc main() {\n\thttp.Han|\n}\n")
	word := protocol.Range{Start: protocol.Position{Line: pos.Line, Character: pos.Character - 3}, End: pos}
	var l inlineList
	err := s.ed.Call(ctx(t), "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.FileURI(path)}, "position": pos,
		"context": map[string]any{"triggerKind": invoked, "selectedCompletionInfo": map[string]any{"range": word, "text": "HandleFunc"}},
	}, &l)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 1 || l.Items[0].InsertText != `HandleFunc("/", index)` || *l.Items[0].Range != word {
		t.Errorf("items = %+v", l)
	}
	if p := s.model.FIMRequests()[0].Prefix; !strings.HasSuffix(p, "\thttp.HandleFunc") {
		t.Errorf("prefix = %q", p)
	}
}

// TestInlineCompletionOtherBuffers: other open buffers of the language go
// with the request, as llama.cpp's input_extra; other languages do not.
func TestInlineCompletionOtherBuffers(t *testing.T) {
	s := startInline(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "helper()"}}},
		map[string]any{"dialect": "llamacpp", "model": ""})
	s.openAt("util.go", "package main\n\nfunc helper() int { return 1 }\n|")
	s.openAt("notes.md", "# notes\n|")
	path, pos := s.openAt("a.go", "package main\n\nvar x = |\n")
	if l := s.inline(path, pos, invoked); len(l.Items) != 1 || l.Items[0].InsertText != "helper()" {
		t.Fatalf("items = %+v", l)
	}
	req := s.model.FIMRequests()[0]
	if req.Dialect != providertest.FIMLlamaCpp || len(req.Extra) != 1 || req.Extra[0].Filename != "util.go" ||
		req.Extra[0].Text != "package main\n\nfunc helper() int { return 1 }\n" {
		t.Errorf("request: dialect %s, extra %+v", req.Dialect, req.Extra)
	}
}
