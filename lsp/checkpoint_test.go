package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

const (
	cpA      = "package a\n\nfunc A() int { return 1 }\n"
	cpAAgent = "package a\n\nfunc A() int { return 2 }\n"
	cpB      = "package b\n"
	cpBAgent = "package b\n\n// B is new.\nfunc B() {}\n"
	cpC      = "package c\n"
)

// rewindScript: one prompt that edits a.go, rewrites b.go and creates
// c.go, then the answer of a prompt after the rewind.
func rewindScript() providertest.Script {
	return providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_a", Name: "edit_file", Arguments: `{"path":"a.go","old_string":"return 1","new_string":"return 2"}`},
			{ID: "call_b", Name: "write_file", Arguments: `{"path":"b.go","content":` + quote(cpBAgent) + `}`}}},
		{ToolCalls: []providertest.Call{
			{ID: "call_c", Name: "write_file", Arguments: `{"path":"c.go","content":` + quote(cpC) + `}`}}},
		{Text: "Changed three files."},
		{Text: "Fresh start."},
	}
}

type checkpointList struct {
	Checkpoints []struct {
		CheckpointID string   `json:"checkpointId"`
		Prompt       string   `json:"prompt"`
		CreatedAt    string   `json:"createdAt"`
		Files        []string `json:"files"`
	} `json:"checkpoints"`
}

type rewindAnswer struct {
	Restored []struct {
		Path   string `json:"path"`
		Action string `json:"action"`
	} `json:"restored"`
	Conflicts []struct {
		Path   string `json:"path"`
		Reason string `json:"reason"`
	} `json:"conflicts"`
	DroppedMessages    int `json:"droppedMessages"`
	DroppedCheckpoints int `json:"droppedCheckpoints"`
}

func (s *setup) checkpoints(sessionID string) checkpointList {
	s.t.Helper()
	var l checkpointList
	if err := s.ed.Call(ctx(s.t), "agent/checkpoints", map[string]any{"sessionId": sessionID}, &l); err != nil {
		s.t.Fatalf("agent/checkpoints: %v", err)
	}
	return l
}

func (s *setup) rewind(params map[string]any) rewindAnswer {
	s.t.Helper()
	var r rewindAnswer
	if err := s.ed.Call(ctx(s.t), "agent/rewind", params, &r); err != nil {
		s.t.Fatalf("agent/rewind: %v", err)
	}
	return r
}

func (r rewindAnswer) actions() string {
	var out []string
	for _, f := range r.Restored {
		out = append(out, f.Path+":"+f.Action)
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// The acceptance scenario: a prompt edits two files (one open, one not)
// and creates a third; agent/rewind puts all three back in ONE
// workspace/applyEdit (the new file deleted by DeleteFile); the editor's
// undo of that edit brings the agent's versions back; the truncated
// conversation is accepted by the strict fake.
func TestRewindRestoresThreeFilesInOneApplyEdit(t *testing.T) {
	s := start(t, rewindScript(), setupOptions{caps: fullCaps, autoApprove: true,
		files: map[string]string{"a.go": cpA, "b.go": cpB}})
	s.initialize(nil)
	a, b, c := filepath.Join(s.root, "a.go"), filepath.Join(s.root, "b.go"), filepath.Join(s.root, "c.go")
	if err := s.ed.Open(ctx(t), a, cpA); err != nil {
		t.Fatal(err)
	}
	r := s.prompt(map[string]any{"prompt": "Change the three files."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	wantBuffers := func(when string, want map[string]string) {
		t.Helper()
		for path, text := range want {
			buf, ok := s.ed.Buffer(path)
			if text == "" {
				if ok {
					t.Errorf("%s: %s still has a buffer: %q", when, filepath.Base(path), buf.Text)
				}
				continue
			}
			if !ok || buf.Text != text {
				t.Errorf("%s: %s = %q (buffer %v), want %q", when, filepath.Base(path), buf.Text, ok, text)
			}
		}
	}
	wantBuffers("after the prompt", map[string]string{a: cpAAgent, b: cpBAgent, c: cpC})

	l := s.checkpoints(r.SessionID)
	if len(l.Checkpoints) != 1 || l.Checkpoints[0].Prompt != "Change the three files." || l.Checkpoints[0].CreatedAt == "" {
		t.Fatalf("checkpoints = %+v", l)
	}
	files := slices.Clone(l.Checkpoints[0].Files)
	slices.Sort(files)
	if !slices.Equal(files, []string{"a.go", "b.go", "c.go"}) {
		t.Fatalf("checkpoint files = %v", files)
	}

	before := len(s.ed.AppliedEdits())
	res := s.rewind(map[string]any{"sessionId": r.SessionID, "checkpointId": l.Checkpoints[0].CheckpointID,
		"restoreFiles": true, "truncateConversation": true})
	if res.actions() != "a.go:restored b.go:restored c.go:deleted" || len(res.Conflicts) != 0 ||
		res.DroppedCheckpoints != 1 || res.DroppedMessages == 0 {
		t.Fatalf("rewind = %+v", res)
	}
	edits := s.ed.AppliedEdits()
	if len(edits) != before+1 {
		t.Fatalf("the rewind sent %d workspace/applyEdit requests, want 1", len(edits)-before)
	}
	var sent struct {
		Label string `json:"label"`
		Edit  struct {
			DocumentChanges []json.RawMessage `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(edits[len(edits)-1], &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent.Edit.DocumentChanges) != 3 || !strings.Contains(string(edits[len(edits)-1]), `{"kind":"delete","uri":"`+lsptest.FileURI(c)+`"`) {
		t.Fatalf("the rewind's edit = %s", edits[len(edits)-1])
	}
	wantBuffers("after the rewind", map[string]string{a: cpA, b: cpB, c: ""})
	if _, err := os.Stat(c); err == nil {
		t.Error("c.go is on disk after the rewind")
	}
	if l := s.checkpoints(r.SessionID); len(l.Checkpoints) != 0 {
		t.Errorf("checkpoints after the rewind = %+v", l)
	}

	// The editor's undo of that one edit brings the agent's work back.
	if err := s.ed.Undo(ctx(t)); err != nil {
		t.Fatal(err)
	}
	wantBuffers("after undo", map[string]string{a: cpAAgent, b: cpBAgent, c: cpC})

	// The conversation starts again from the system prompt.
	r2 := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "Start over."})
	if r2.StopReason != "end_turn" || r2.Text != "Fresh start." {
		t.Fatalf("prompt after the rewind: %+v", r2)
	}
	reqs := s.model.Requests()
	last := reqs[len(reqs)-1]
	if last.Rejected != "" {
		t.Fatalf("the fake rejected the request after the rewind: %s", last.Rejected)
	}
	if strings.Contains(string(last.Body), "Change the three files.") || !strings.Contains(string(last.Body), "Start over.") {
		t.Errorf("the request after the rewind still carries the rewound prompt: %s", last.Body)
	}
}

// Checkpoints are stored with the session: after a restart of the daemon
// on the same state directory they are listed, and a rewind (here by a
// client without applyEdit: atomic disk writes) restores the files.
func TestCheckpointsSurviveRestart(t *testing.T) {
	state := t.TempDir()
	noApply := lsptest.Capabilities{}
	s := start(t, rewindScript(), setupOptions{caps: noApply, autoApprove: true, stateDir: state,
		files: map[string]string{"a.go": cpA, "b.go": cpB}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Change the three files."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	want := s.checkpoints(r.SessionID)
	root := s.root
	s.stop()

	s2 := start(t, nil, setupOptions{caps: noApply, autoApprove: true, stateDir: state, model: s.model})
	s2.root = root
	s2.initialize(nil)
	got := s2.checkpoints(r.SessionID)
	if len(got.Checkpoints) != 1 || got.Checkpoints[0].CheckpointID != want.Checkpoints[0].CheckpointID ||
		len(got.Checkpoints[0].Files) != 3 {
		t.Fatalf("after the restart: %+v, want %+v", got, want)
	}
	res := s2.rewind(map[string]any{"sessionId": r.SessionID, "checkpointId": got.Checkpoints[0].CheckpointID,
		"restoreFiles": true, "truncateConversation": true})
	if res.actions() != "a.go:restored b.go:restored c.go:deleted" {
		t.Fatalf("rewind = %+v", res)
	}
	for name, text := range map[string]string{"a.go": cpA, "b.go": cpB} {
		if disk, err := os.ReadFile(filepath.Join(root, name)); err != nil || string(disk) != text {
			t.Errorf("%s on disk = %q (%v), want %q", name, disk, err, text)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "c.go")); err == nil {
		t.Error("c.go survived the rewind")
	}
	if len(s2.ed.AppliedEdits()) != 0 {
		t.Error("a client without applyEdit got workspace/applyEdit")
	}
}

// Bad agent/rewind params are -32602.
func TestRewindRefusesBadParams(t *testing.T) {
	s := start(t, providertest.Script{{Text: "hi"}}, setupOptions{caps: fullCaps, autoApprove: true})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "hello"})
	for _, p := range []map[string]any{
		{"sessionId": r.SessionID, "checkpointId": "nope", "restoreFiles": true},
		{"sessionId": r.SessionID, "restoreFiles": true},
		{"sessionId": r.SessionID, "checkpointId": "x"},
		{"checkpointId": "x", "restoreFiles": true},
	} {
		err := s.ed.Call(ctx(t), "agent/rewind", p, nil)
		if err == nil || !strings.Contains(err.Error(), "invalid params") {
			t.Errorf("%v: %v", p, err)
		}
	}
}

const lensBefore = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"

type codeLens struct {
	Range   protocol.Range `json:"range"`
	Command struct {
		Title     string            `json:"title"`
		Command   string            `json:"command"`
		Arguments []json.RawMessage `json:"arguments"`
	} `json:"command"`
}

func (s *setup) codeLenses(path string) []codeLens {
	s.t.Helper()
	var out []codeLens
	if err := s.ed.Call(ctx(s.t), "textDocument/codeLens", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.FileURI(path)}}, &out); err != nil {
		s.t.Fatalf("codeLens: %v", err)
	}
	return out
}

// The code lens marks each region the agent changed; a region the user
// typed into since has none; running a lens's command reverts that region
// alone, in one edit, and the user's typing stays.
func TestRevertCodeLens(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_1", Name: "edit_file", Arguments: `{"path":"n.txt","old_string":"two\n","new_string":"TWO\n"}`}}},
		{ToolCalls: []providertest.Call{
			{ID: "call_2", Name: "edit_file", Arguments: `{"path":"n.txt","old_string":"four\nfive\n","new_string":"FOUR\n"}`}}},
		{ToolCalls: []providertest.Call{
			{ID: "call_3", Name: "edit_file", Arguments: `{"path":"n.txt","old_string":"seven\n","new_string":"SEVEN\n"}`}}},
		{Text: "Shouted."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, autoApprove: true, files: map[string]string{"n.txt": lensBefore}})
	s.initialize(nil)
	path := filepath.Join(s.root, "n.txt")
	if err := s.ed.Open(ctx(t), path, lensBefore); err != nil {
		t.Fatal(err)
	}
	if lenses := s.codeLenses(path); len(lenses) != 0 {
		t.Fatalf("lenses before any change: %+v", lenses)
	}
	if r := s.prompt(map[string]any{"prompt": "Shout some lines."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	lenses := s.codeLenses(path)
	var lines []uint32
	for _, l := range lenses {
		if l.Command.Title != "Revert agent change" || l.Command.Command != "agent.revert" || len(l.Command.Arguments) != 1 {
			t.Fatalf("lens = %+v", l)
		}
		lines = append(lines, l.Range.Start.Line)
	}
	if !slices.Equal(lines, []uint32{1, 3, 5}) {
		t.Fatalf("lens lines = %v, want 1, 3, 5", lines)
	}
	// The user types into the last region: it loses its lens.
	if err := s.ed.Change(ctx(t), path, protocol.Range{Start: protocol.Position{Line: 5, Character: 5},
		End: protocol.Position{Line: 5, Character: 5}}, "!"); err != nil {
		t.Fatal(err)
	}
	waitForLenses(t, s, path, 2)
	lenses = s.codeLenses(path)

	var res rewindAnswer
	if err := s.ed.Call(ctx(t), "workspace/executeCommand", map[string]any{
		"command": "agent.revert", "arguments": lenses[1].Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	buf, _ := s.ed.Buffer(path)
	if want := "one\nTWO\nthree\nfour\nfive\nsix\nSEVEN!\n"; buf.Text != want {
		t.Fatalf("buffer after the revert = %q, want %q", buf.Text, want)
	}
	if res.actions() != "n.txt:restored" {
		t.Errorf("revert answer = %+v", res)
	}
	if lenses := s.codeLenses(path); len(lenses) != 1 || lenses[0].Range.Start.Line != 1 {
		t.Errorf("lenses after the revert = %+v", lenses)
	}
	// The whole file as before the checkpoint: the user's typing on a
	// line the agent changed is a conflict, and the file stays as it is.
	var args struct {
		CheckpointID string `json:"checkpointId"`
	}
	_ = json.Unmarshal(lenses[0].Command.Arguments[0], &args)
	revertFile := func() rewindAnswer {
		t.Helper()
		var res rewindAnswer
		if err := s.ed.Call(ctx(t), "workspace/executeCommand", map[string]any{"command": "agent.revert",
			"arguments": []any{map[string]any{"uri": lsptest.FileURI(path), "checkpointId": args.CheckpointID}}}, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	res = revertFile()
	buf, _ = s.ed.Buffer(path)
	if buf.Text != "one\nTWO\nthree\nfour\nfive\nsix\nSEVEN!\n" || len(res.Conflicts) != 1 || len(res.Restored) != 0 {
		t.Fatalf("reverting the file over the user's typing: %q, %+v", buf.Text, res)
	}
	// Without the typing on the agent's line, the rest merges: the region
	// the user reverted already stays reverted.
	if err := s.ed.Change(ctx(t), path, protocol.Range{Start: protocol.Position{Line: 6, Character: 5},
		End: protocol.Position{Line: 6, Character: 6}}, ""); err != nil {
		t.Fatal(err)
	}
	waitForLenses(t, s, path, 2)
	res = revertFile()
	buf, _ = s.ed.Buffer(path)
	if buf.Text != lensBefore || res.actions() != "n.txt:merged" {
		t.Fatalf("buffer after reverting the file = %q (%+v), want %q", buf.Text, res, lensBefore)
	}
}

// waitForLenses waits until the daemon has seen the user's typing.
func waitForLenses(t *testing.T, s *setup, path string, n int) {
	t.Helper()
	for i := 0; i < 200; i++ {
		if len(s.codeLenses(path)) == n {
			return
		}
	}
	t.Fatalf("lenses never became %d: %+v", n, s.codeLenses(path))
}

// /rewind as a slash command: without an argument it lists the
// checkpoints; /rewind 1 restores the files and drops the conversation, so
// the next prompt's request no longer carries the rewound one.
func TestSlashRewind(t *testing.T) {
	s := start(t, rewindScript(), setupOptions{caps: lsptest.Capabilities{}, autoApprove: true,
		files: map[string]string{"a.go": cpA, "b.go": cpB}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Change the three files."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	list := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/rewind"})
	if !strings.Contains(list.Text, `1. `) || !strings.Contains(list.Text, `"Change the three files."`) {
		t.Fatalf("/rewind listing = %q", list.Text)
	}
	done := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "/rewind 1"})
	for _, want := range []string{"restored a.go", "restored b.go", "deleted c.go", "message(s) dropped"} {
		if !strings.Contains(done.Text, want) {
			t.Errorf("/rewind 1 = %q, want it to say %q", done.Text, want)
		}
	}
	if disk, err := os.ReadFile(filepath.Join(s.root, "a.go")); err != nil || string(disk) != cpA {
		t.Errorf("a.go after /rewind 1 = %q (%v)", disk, err)
	}
	next := s.prompt(map[string]any{"sessionId": r.SessionID, "prompt": "Start over."})
	if next.Text != "Fresh start." {
		t.Fatalf("next prompt: %+v", next)
	}
	reqs := s.model.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if strings.Contains(last, "Change the three files.") || reqs[len(reqs)-1].Rejected != "" {
		t.Errorf("the request after /rewind still carries the rewound prompt (or was rejected: %q)", reqs[len(reqs)-1].Rejected)
	}
	bad := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": r.SessionID, "prompt": "/rewind 9"}, nil)
	if code := errorCode(t, bad); code != -32602 {
		t.Errorf("/rewind 9: code %d, want -32602", code)
	}
}

// An editor that can be asked to refresh its code lenses is asked once a
// prompt's edits are in (they change what the revert lenses cover) and
// after a revert: the lenses appear without waiting for the user to type.
func TestCodeLensesAreRefreshedAfterEdits(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{
			{ID: "call_1", Name: "edit_file", Arguments: `{"path":"n.txt","old_string":"two\n","new_string":"TWO\n"}`}}},
		{Text: "Shouted."},
	}
	caps := fullCaps
	caps.CodeLensRefresh = true
	s := start(t, script, setupOptions{caps: caps, autoApprove: true, files: map[string]string{"n.txt": lensBefore}})
	s.initialize(nil)
	path := filepath.Join(s.root, "n.txt")
	if err := s.ed.Open(ctx(t), path, lensBefore); err != nil {
		t.Fatal(err)
	}
	if r := s.prompt(map[string]any{"prompt": "Shout a line."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	await.Poll(t, 10*time.Second, "a code lens refresh after the prompt", func() bool { return s.ed.CodeLensRefreshes() >= 1 })
	before := s.ed.CodeLensRefreshes()
	lenses := s.codeLenses(path)
	if len(lenses) != 1 {
		t.Fatalf("lenses after the prompt = %+v", lenses)
	}
	var res rewindAnswer
	if err := s.ed.Call(ctx(t), "workspace/executeCommand", map[string]any{
		"command": "agent.revert", "arguments": lenses[0].Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	await.Poll(t, 10*time.Second, "a code lens refresh after the revert", func() bool { return s.ed.CodeLensRefreshes() > before })
}
