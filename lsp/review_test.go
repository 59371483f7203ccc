package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// reviewCaps is an editor with every capability and agent/review.
var reviewCaps = func() lsptest.Capabilities { c := fullCaps; c.AgentReview = true; return c }()

// renameSource has three uses of oldName far enough apart to be three hunks.
const renameSource = "package demo\n\nfunc oldName() {}\n\n// a\n// b\n// c\n\nvar x = oldName\n\n// d\n// e\n// f\n\nvar y = oldName\n"

var renameScript = providertest.Script{
	{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file",
		Arguments: `{"path":"a.go","old_string":"oldName","new_string":"newName","replace_all":true}`}}},
	{Text: "Done."},
}

// noPopup fails the test when a popup is shown to a review client.
func noPopup(t *testing.T) func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		t.Error("a client with agentReview was shown a popup")
		return nil, errors.New("no popups here")
	}
}

// toolMessage returns the content of the Chat Completions tool message
// answering callID in the i-th request the model received.
func toolMessage(t *testing.T, s *setup, i int, callID string) string {
	t.Helper()
	reqs := s.model.Requests()
	if len(reqs) <= i {
		t.Fatalf("the model got %d requests, want more than %d", len(reqs), i)
	}
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := reqs[i].Decode(&body); err != nil {
		t.Fatal(err)
	}
	for _, m := range body.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	t.Fatalf("request %d has no tool message for %s: %s", i, callID, reqs[i].Body)
	return ""
}

// A review client gets agent/review with the edit's hunks; accepting
// hunks 1 and 3 lands exactly those in one applyEdit, and the model reads
// which hunk did not land and the user's feedback, verbatim.
func TestReviewPartialAppliesOnlyAcceptedHunks(t *testing.T) {
	reviews := make(chan lsptest.ReviewParams, 1)
	s := start(t, renameScript, setupOptions{caps: reviewCaps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopup(t),
			Review: func(_ context.Context, p lsptest.ReviewParams) (*lsptest.ReviewAnswer, error) {
				reviews <- p
				return &lsptest.ReviewAnswer{Decision: "partial", AcceptedHunks: []int{1, 3}, Feedback: "keep the old name"}, nil
			}}})
	s.initialize(nil)
	path := filepath.Join(s.root, "a.go")
	if err := s.ed.Open(ctx(t), path, renameSource); err != nil {
		t.Fatal(err)
	}
	r := s.prompt(map[string]any{"prompt": "Rename oldName."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}

	p := <-reviews
	if p.SessionID != r.SessionID || p.ToolCallID != "call_rename" || p.Tool != "edit_file" || p.Path != "a.go" ||
		p.URI != lsptest.FileURI(path) || p.Risk != "MEDIUM" {
		t.Errorf("review params = %+v", p)
	}
	wantRenameHunks(t, p.Hunks)

	want := strings.Replace(strings.Replace(renameSource, "func oldName", "func newName", 1), "var y = oldName", "var y = newName", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant\n%s", buf.Text, want)
	}
	if n := len(s.ed.AppliedEdits()); n != 1 {
		t.Errorf("%d applyEdit requests, want 1", n)
	}
	out := toolMessage(t, s, 1, "call_rename")
	for _, w := range []string{"edited a.go only in part", "applied hunks 1, 3 of 3", "NOT applied: hunk 2 (line 9)", "User feedback: keep the old name"} {
		if !strings.Contains(out, w) {
			t.Errorf("tool result %q lacks %q", out, w)
		}
	}
}

// Rejecting the whole edit with feedback is a denial the model reads with
// the feedback; nothing reaches the editor.
func TestReviewRejectWithFeedbackIsDenied(t *testing.T) {
	s := start(t, renameScript, setupOptions{caps: reviewCaps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopup(t),
			Review: func(context.Context, lsptest.ReviewParams) (*lsptest.ReviewAnswer, error) {
				return &lsptest.ReviewAnswer{Decision: "reject", Feedback: "not now"}, nil
			}}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Rename oldName."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	var res update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			res = u
		}
	}
	if res.Status != "denied" || res.Output != "denied by the user\nUser feedback: not now" {
		t.Errorf("tool_result = %+v", res)
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d applyEdit requests after a rejection", n)
	}
	if out := toolMessage(t, s, 1, "call_rename"); !strings.Contains(out, "User feedback: not now") {
		t.Errorf("the model read %q", out)
	}
}

// typingScript edits line 2 of a twenty-line file.
var typingScript = providertest.Script{
	{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
		Arguments: `{"path":"a.txt","old_string":"line 2\n","new_string":"LINE TWO\n"}`}}},
	{Text: "Done."},
}

func twentyLines() string {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// typeWhileAsked returns a popup handler that types text over line (0-based)
// of path, as the user would while the approval is open, then allows.
func typeWhileAsked(s **setup, path string, line uint32, text string) func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return func(c context.Context, _ protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		r := protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line + 1}}
		if err := (*s).ed.Change(c, path, r, text); err != nil {
			return nil, err
		}
		return &protocol.MessageActionItem{Title: "Allow"}, nil
	}
}

// The user types far from the edit after the agent read the file: the edit
// lands on the new text, against its version, and the typing stays.
func TestEditRebasedOntoUserTyping(t *testing.T) {
	var s *setup
	before := twentyLines()
	path := ""
	s = start(t, typingScript, setupOptions{caps: fullCaps, files: map[string]string{"a.txt": before},
		handlers: lsptest.Handlers{ShowMessageRequest: func(c context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
			return typeWhileAsked(&s, path, 17, "typed by the user\n")(c, p)
		}}})
	path = filepath.Join(s.root, "a.txt")
	s.shoutLineTwo(path, before)
	want := strings.Replace(strings.Replace(before, "line 2\n", "LINE TWO\n", 1), "line 18\n", "typed by the user\n", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant\n%s", buf.Text, want)
	}
	edits := s.ed.AppliedEdits()
	if len(edits) != 1 || !strings.Contains(string(edits[0]), `"version":2`) {
		t.Errorf("applyEdit requests = %s, want one against version 2 (after the typing)", edits)
	}
	if out := toolMessage(t, s, 1, "call_edit"); !strings.HasPrefix(out, "edited a.txt") {
		t.Errorf("the model read %q", out)
	}
}

// The user types on the lines the agent edits: the model reads a conflict
// naming the lines, nothing is sent to the editor, the typing stays.
func TestEditConflictingWithUserTypingFails(t *testing.T) {
	var s *setup
	before := twentyLines()
	path := ""
	s = start(t, typingScript, setupOptions{caps: fullCaps, files: map[string]string{"a.txt": before},
		handlers: lsptest.Handlers{ShowMessageRequest: func(c context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
			return typeWhileAsked(&s, path, 1, "line 2 typed by the user\n")(c, p)
		}}})
	path = filepath.Join(s.root, "a.txt")
	s.shoutLineTwo(path, before)
	want := strings.Replace(before, "line 2\n", "line 2 typed by the user\n", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant the user's text\n%s", buf.Text, want)
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d applyEdit requests for a conflicting edit", n)
	}
	out := toolMessage(t, s, 1, "call_edit")
	if !strings.Contains(out, "the user edited line 2 of a.txt since you read it") || !strings.Contains(out, "Read a.txt again and redo your edit") {
		t.Errorf("the model read %q", out)
	}
}

// An editor refusing an edit because the user typed while it was on its
// way gets it once more, rebased onto the newer buffer.
func TestVersionRaceIsRetriedOnce(t *testing.T) {
	var s *setup
	var once sync.Once
	before := twentyLines()
	path := ""
	s = start(t, typingScript, setupOptions{caps: fullCaps, files: map[string]string{"a.txt": before},
		handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", nil),
			BeforeApplyEdit: func(c context.Context) {
				once.Do(func() {
					r := protocol.Range{Start: protocol.Position{Line: 19}, End: protocol.Position{Line: 20}}
					if err := s.ed.Change(c, path, r, "typed meanwhile\n"); err != nil {
						t.Error(err)
					}
				})
			}}})
	path = filepath.Join(s.root, "a.txt")
	s.shoutLineTwo(path, before)
	want := strings.Replace(strings.Replace(before, "line 2\n", "LINE TWO\n", 1), "line 20\n", "typed meanwhile\n", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant\n%s", buf.Text, want)
	}
	edits := s.ed.AppliedEdits()
	if len(edits) != 2 || !strings.Contains(string(edits[0]), `"version":1`) || !strings.Contains(string(edits[1]), `"version":2`) {
		t.Errorf("applyEdit requests = %s, want version 1 (refused) then version 2", edits)
	}
}

// shoutLineTwo opens the file at path with text in the editor and runs
// the typing tests' prompt to its end.
func (s *setup) shoutLineTwo(path, text string) {
	s.t.Helper()
	s.initialize(nil)
	if err := s.ed.Open(ctx(s.t), path, text); err != nil {
		s.t.Fatal(err)
	}
	if r := s.prompt(map[string]any{"prompt": "Shout line 2."}); r.StopReason != "end_turn" {
		s.t.Fatalf("result = %+v", r)
	}
}

// wantRenameHunks checks the hunks of renaming oldName in renameSource:
// three one-line hunks, 0-based lines, each with its diff.
func wantRenameHunks(t *testing.T, hunks []lsptest.ReviewHunk) {
	t.Helper()
	want := []lsptest.ReviewHunk{
		{ID: 1, StartLine: 2, EndLine: 3, OldText: "func oldName() {}\n", NewText: "func newName() {}\n"},
		{ID: 2, StartLine: 8, EndLine: 9, OldText: "var x = oldName\n", NewText: "var x = newName\n"},
		{ID: 3, StartLine: 14, EndLine: 15, OldText: "var y = oldName\n", NewText: "var y = newName\n"},
	}
	if len(hunks) != len(want) {
		t.Fatalf("hunks = %+v", hunks)
	}
	for i, h := range hunks {
		w := want[i]
		if h.ID != w.ID || h.StartLine != w.StartLine || h.EndLine != w.EndLine || h.OldText != w.OldText || h.NewText != w.NewText ||
			!strings.HasPrefix(h.Diff, "@@ ") || !strings.Contains(h.Diff, "-"+w.OldText) || !strings.Contains(h.Diff, "+"+w.NewText) {
			t.Errorf("hunk %d = %+v, want %+v with a diff", i+1, h, w)
		}
	}
}
