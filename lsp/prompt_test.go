package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func TestInitializeResult(t *testing.T) {
	s := start(t, nil, setupOptions{caps: fullCaps})
	raw := s.initialize(nil)
	var res struct {
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
		Capabilities struct {
			TextDocumentSync struct {
				OpenClose bool            `json:"openClose"`
				Change    int             `json:"change"`
				Save      json.RawMessage `json:"save"`
			} `json:"textDocumentSync"`
			CodeActionProvider     bool            `json:"codeActionProvider"`
			CodeLensProvider       json.RawMessage `json:"codeLensProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
			Experimental struct {
				Agent struct {
					ProtocolVersion int `json:"protocolVersion"`
				} `json:"agent"`
			} `json:"experimental"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	c := res.Capabilities
	if res.ServerInfo.Name != "agent-lsp" || res.ServerInfo.Version == "" {
		t.Errorf("serverInfo = %+v", res.ServerInfo)
	}
	if !c.TextDocumentSync.OpenClose || c.TextDocumentSync.Change != 2 || c.TextDocumentSync.Save == nil {
		t.Errorf("textDocumentSync = %+v", c.TextDocumentSync)
	}
	if !c.CodeActionProvider || strings.Join(c.ExecuteCommandProvider.Commands, ",") != "agent.ask,agent.cancel,agent.revert" || c.CodeLensProvider == nil {
		t.Errorf("codeAction %v, commands %v", c.CodeActionProvider, c.ExecuteCommandProvider.Commands)
	}
	if c.Experimental.Agent.ProtocolVersion != 1 {
		t.Errorf("experimental = %s", raw)
	}
}

// A prompt streams its text as (possibly coalesced) deltas with consecutive seq
// numbers, ends each model call with round_end, reports progress on a
// token the server created, and answers with the final text and usage.
func TestPromptStreamsTextBothDialects(t *testing.T) {
	answerText := strings.Repeat("The quick brown fox jumps over the lazy dog; héllo 🎉. ", 8)
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			usage := provider.Usage{PromptTokens: 1200, CompletionTokens: 80, CachedTokens: 1024}
			s := start(t, providertest.Script{{Text: answerText, Usage: usage}}, setupOptions{dialect: dialect, caps: fullCaps})
			s.initialize(nil)
			r := s.prompt(map[string]any{"prompt": "Say the pangram."})
			if r.StopReason != "end_turn" || r.Text != answerText || r.Usage != usage || r.Error != "" || r.SessionID == "" {
				t.Fatalf("result = %+v", r)
			}
			us := s.updates(r.SessionID)
			if got := joinText(us, "text"); got != answerText {
				t.Errorf("text updates = %q, want %q", got, answerText)
			}
			for i, u := range us {
				if u.Seq != int64(i+1) {
					t.Fatalf("update %d has seq %d: %+v", i, u.Seq, us)
				}
			}
			last := us[len(us)-1]
			if last.Kind != "round_end" || last.StopReason != "end_turn" || last.Usage != usage {
				t.Errorf("last update = %+v", last)
			}
			// How many deltas share an update depends on how fast the
			// client reads (they merge only while a write is in progress);
			// updates_internal_test.go checks the merging deterministically.
			t.Logf("%d updates for %d bytes of text", len(us), len(answerText))
			tokens := s.ed.ProgressTokens()
			if len(tokens) != 1 {
				t.Fatalf("progress tokens created = %v", tokens)
			}
			kinds := progressKinds(t, s.ed, tokens[0])
			if len(kinds) < 2 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
				t.Errorf("progress = %v", kinds)
			}
		})
	}
}

func progressKinds(t *testing.T, ed *lsptest.Editor, token string) []string {
	t.Helper()
	var kinds []string
	for _, n := range ed.Notifications("$/progress") {
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct {
				Kind    string `json:"kind"`
				Message string `json:"message"`
			} `json:"value"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil {
			t.Fatal(err)
		}
		if string(p.Token) == token {
			kinds = append(kinds, p.Value.Kind)
		}
	}
	return kinds
}

// An approved edit_file of an open document reaches the editor as a
// versioned TextDocumentEdit with small edits in UTF-16 positions; the
// buffer changes, the disk does not, and run_bash is told so.
func TestApprovedEditLandsInOpenBuffer(t *testing.T) {
	before := "héllo wörld 🎉\nsecond line ünïcode 🚀 tail\nthird\n"
	want := "héllo wörld 🎉\nsecond line ÜNÏCODE 🚀 tail\nthird\n"
	asked := make(chan protocol.ShowMessageRequestParams, 4)
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"ünïcode","new_string":"ÜNÏCODE"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"cat a.txt"}`}}},
		{Text: "Edited."},
	}
	s := start(t, script, setupOptions{dialect: anthropic.Name, caps: fullCaps, files: map[string]string{"a.txt": before},
		handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", asked)}})
	s.initialize(nil)
	path := filepath.Join(s.root, "a.txt")
	if err := s.ed.Open(ctx(t), path, before); err != nil {
		t.Fatal(err)
	}
	r := s.prompt(map[string]any{"prompt": "Shout the word unicode."})
	if r.StopReason != "end_turn" || r.Text != "Edited." {
		t.Fatalf("result = %+v", r)
	}
	popup := <-asked
	if !strings.Contains(popup.Message, "edit_file") || !strings.Contains(popup.Message, "a.txt") ||
		!strings.Contains(popup.Message, "+second line ÜNÏCODE") || !strings.Contains(popup.Message, "risk") {
		t.Errorf("popup message = %q", popup.Message)
	}
	var titles []string
	for _, a := range popup.Actions {
		titles = append(titles, a.Title)
	}
	if strings.Join(titles, "|") != "Allow|Allow for this session|Always allow in this workspace|Always allow for me|Deny" {
		t.Errorf("popup actions = %v", titles)
	}

	edits := s.ed.AppliedEdits()
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests, want 1", len(edits))
	}
	var p struct {
		Label string `json:"label"`
		Edit  struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int32 `json:"version"`
				} `json:"textDocument"`
				Edits []protocol.TextEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(edits[0], &p); err != nil {
		t.Fatal(err)
	}
	if p.Label != "agent: edit_file a.txt" {
		t.Errorf("label = %q", p.Label)
	}
	dc := p.Edit.DocumentChanges
	if len(dc) != 1 || dc[0].TextDocument.Version == nil || *dc[0].TextDocument.Version != 1 {
		t.Fatalf("documentChanges = %s", edits[0])
	}
	// Minimal: one edit of the changed word, not a whole-file replace.
	wantEdit := protocol.TextEdit{Range: protocol.Range{Start: protocol.Position{Line: 1, Character: 12},
		End: protocol.Position{Line: 1, Character: 19}}, NewText: "ÜNÏCODE"}
	if len(dc[0].Edits) != 1 || dc[0].Edits[0] != wantEdit {
		t.Errorf("edits = %+v, want [%+v]", dc[0].Edits, wantEdit)
	}
	buf, _ := s.ed.Buffer(path)
	if buf.Text != want || buf.Version != 2 {
		t.Errorf("buffer = %q v%d, want %q v2", buf.Text, buf.Version, want)
	}
	if disk, _ := os.ReadFile(path); string(disk) != before {
		t.Errorf("disk changed to %q", disk)
	}
	var bash update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" && u.Name == "run_bash" {
			bash = u
		}
	}
	if !strings.Contains(bash.Output, "Note: these files were edited in the editor but are not saved to disk yet: a.txt") {
		t.Errorf("run_bash output does not mention the unsaved edit: %q", bash.Output)
	}
}

// A denied edit never reaches the editor; the model reads "denied".
func TestDeniedEditIsNotApplied(t *testing.T) {
	before := "keep me\n"
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"keep","new_string":"drop"}`}}},
		{Text: "Understood, not changed."},
	}
	for _, title := range []string{"Deny", ""} { // an explicit Deny and a null answer
		t.Run("answer="+title, func(t *testing.T) {
			s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"a.txt": before},
				handlers: lsptest.Handlers{ShowMessageRequest: answer(title, nil)}})
			s.initialize(nil)
			path := filepath.Join(s.root, "a.txt")
			if err := s.ed.Open(ctx(t), path, before); err != nil {
				t.Fatal(err)
			}
			r := s.prompt(map[string]any{"prompt": "Change it."})
			if r.StopReason != "end_turn" {
				t.Fatalf("result = %+v", r)
			}
			if n := len(s.ed.AppliedEdits()); n != 0 {
				t.Errorf("%d applyEdit requests after a denial", n)
			}
			var res update
			for _, u := range s.updates(r.SessionID) {
				if u.Kind == "tool_result" {
					res = u
				}
			}
			if res.Status != "denied" || !strings.Contains(res.Output, "denied") {
				t.Errorf("tool_result = %+v", res)
			}
			if buf, _ := s.ed.Buffer(path); buf.Text != before {
				t.Errorf("buffer = %q", buf.Text)
			}
		})
	}
}

// A new file is created with CreateFile, then filled; it sits in the
// editor unsaved until didSave.
func TestNewFileIsCreatedThroughTheEditor(t *testing.T) {
	content := "package demo\n\n// Ünïcode ✓\n"
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file",
			Arguments: `{"path":"pkg/new.go","content":` + quote(content) + `}`}}},
		{Text: "Created."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", nil)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Create it."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	edits := s.ed.AppliedEdits()
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests", len(edits))
	}
	var p struct {
		Edit struct {
			DocumentChanges []json.RawMessage `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(edits[0], &p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.root, "pkg", "new.go")
	uri := lsptest.FileURI(path)
	if len(p.Edit.DocumentChanges) != 2 || string(p.Edit.DocumentChanges[0]) != `{"kind":"create","uri":"`+uri+`"}` ||
		!strings.Contains(string(p.Edit.DocumentChanges[1]), `"version":null`) {
		t.Fatalf("documentChanges = %s", edits[0])
	}
	buf, ok := s.ed.Buffer(path)
	if !ok || buf.Text != content {
		t.Errorf("buffer = %q (ok %v), want %q", buf.Text, ok, content)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("the file is on disk before a save")
	}
}

// A client without workspace.applyEdit gets atomic writes to disk.
func TestEditWithoutApplyEditGoesToDisk(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"one","new_string":"uno"}`}}},
		{Text: "Done."},
	}
	s := start(t, script, setupOptions{dialect: anthropic.Name, files: map[string]string{"a.txt": "one two\n"},
		handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", nil)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Translate."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d applyEdit requests to a client without the capability", n)
	}
	if disk, _ := os.ReadFile(filepath.Join(s.root, "a.txt")); string(disk) != "uno two\n" {
		t.Errorf("disk = %q", disk)
	}
}

// An editor's applied:false fails the tool call with its reason.
func TestRefusedEditFailsTheCall(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"one","new_string":"uno"}`}}},
		{Text: "It failed."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"a.txt": "one\n"}, autoApprove: true,
		handlers: lsptest.Handlers{RefuseEdits: "the file is read-only"}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Translate."})
	var res update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			res = u
		}
	}
	if res.Status != "failed" || !strings.Contains(res.Output, "the file is read-only") {
		t.Errorf("tool_result = %+v", res)
	}
}

// The selection in context is read from the open buffer (unsaved text).
func TestPromptContextReadsTheBuffer(t *testing.T) {
	var sawSelection bool
	script := providertest.Script{{Text: "It adds.", Check: func(r providertest.Received) error {
		sawSelection = strings.Contains(string(r.Body), "func add(a, b int) int { return a + b } // unsaved")
		return nil
	}}}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"m.go": "package m\n"}})
	s.initialize(nil)
	path := filepath.Join(s.root, "m.go")
	text := "package m\n\nfunc add(a, b int) int { return a + b } // unsaved\n"
	if err := s.ed.Open(ctx(t), path, text); err != nil {
		t.Fatal(err)
	}
	r := s.prompt(map[string]any{"prompt": "What does this do?", "context": map[string]any{
		"uri": lsptest.FileURI(path), "range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 3}}}})
	if r.StopReason != "end_turn" || !sawSelection {
		t.Errorf("result %+v, selection sent: %v", r, sawSelection)
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A client with applyEdit but without documentChanges gets the changes
// map; the unsaved-edit note lasts until the editor saves the file.
func TestChangesMapAndSaveClearsTheNote(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"a.txt","old_string":"one","new_string":"uno"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_bash1", Name: "run_bash", Arguments: `{"command":"cat a.txt"}`}}},
		{Text: "Edited."},
		{ToolCalls: []providertest.Call{{ID: "call_bash2", Name: "run_bash", Arguments: `{"command":"cat a.txt"}`}}},
		{Text: "Saved."},
	}
	s := start(t, script, setupOptions{caps: lsptest.Capabilities{ApplyEdit: true}, autoApprove: true,
		files: map[string]string{"a.txt": "one two\n"}})
	s.initialize(nil)
	path := filepath.Join(s.root, "a.txt")
	r := s.prompt(map[string]any{"prompt": "Translate."})
	edits := s.ed.AppliedEdits()
	if len(edits) != 1 || !strings.Contains(string(edits[0]), `"changes":{"`+lsptest.FileURI(path)+`":[{"range"`) ||
		strings.Contains(string(edits[0]), "documentChanges") {
		t.Fatalf("applyEdit = %s", edits)
	}
	if buf, _ := s.ed.Buffer(path); buf.Text != "uno two\n" {
		t.Errorf("buffer = %q", buf.Text)
	}
	note := "not saved to disk yet: a.txt"
	outputs := func() map[string]string {
		m := map[string]string{}
		for _, u := range s.updates(r.SessionID) {
			if u.Kind == "tool_result" {
				m[u.ToolCallID] = u.Output
			}
		}
		return m
	}
	if out := outputs()["call_bash1"]; !strings.Contains(out, "one two") || !strings.Contains(out, note) {
		t.Errorf("run_bash before the save = %q", out)
	}
	if err := s.ed.Save(ctx(t), path); err != nil {
		t.Fatal(err)
	}
	r = s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "Saved?"})
	if out := outputs()["call_bash2"]; !strings.Contains(out, "uno two") || strings.Contains(out, "Note:") {
		t.Errorf("run_bash after the save = %q", out)
	}
}
