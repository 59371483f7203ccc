package lsp_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// An edit to a client that declared agentApprove but not agentReview is
// asked about with agent/approve carrying the path, the uri and the hunks
// (as agent/review would); allowing it lands every hunk.
func TestApproveEditCarriesHunks(t *testing.T) {
	asked := make(chan lsptest.ApproveParams, 1)
	s := start(t, renameScript, setupOptions{caps: approveCaps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: choose("allow_once", asked)}})
	s.initialize(nil)
	path := filepath.Join(s.root, "a.go")
	if err := s.ed.Open(ctx(t), path, renameSource); err != nil {
		t.Fatal(err)
	}
	r := s.prompt(map[string]any{"prompt": "Rename oldName."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	p := <-asked
	if p.SessionID != r.SessionID || p.ToolCallID != "call_rename" || p.Tool != "edit_file" || p.Path != "a.go" ||
		p.URI != lsptest.FileURI(path) || p.Risk != "medium" || p.Command != "" || len(p.Reasons) != 0 ||
		!strings.HasPrefix(p.Summary, "edit a.go") {
		t.Errorf("approve params = %s", p.Raw)
	}
	if !reflect.DeepEqual(p.Options, optionsWithSession) {
		t.Errorf("options = %+v", p.Options)
	}
	wantRenameHunks(t, p.Hunks)
	if buf, _ := s.ed.Buffer(path); buf.Text != strings.ReplaceAll(renameSource, "oldName", "newName") {
		t.Errorf("buffer =\n%s", buf.Text)
	}
}

// A client that declared both reviews edits with agent/review and
// approves everything else with agent/approve; no popup.
func TestApproveAndReviewSplitTheActions(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file",
			Arguments: `{"path":"a.go","old_string":"oldName","new_string":"newName","replace_all":true}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: bashArgs("echo built")}}},
		{Text: "Done."},
	}
	caps := approveCaps
	caps.AgentReview = true
	approves := make(chan lsptest.ApproveParams, 2)
	reviews := make(chan lsptest.ReviewParams, 2)
	s := start(t, script, setupOptions{caps: caps, files: map[string]string{"a.go": renameSource},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove and agentReview"),
			Approve: choose("allow_once", approves),
			Review: func(_ context.Context, p lsptest.ReviewParams) (*lsptest.ReviewAnswer, error) {
				reviews <- p
				return &lsptest.ReviewAnswer{Decision: "accept"}, nil
			}}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Rename and build."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	close(approves)
	close(reviews)
	var approved, reviewed []string
	for p := range approves {
		approved = append(approved, p.ToolCallID)
	}
	for p := range reviews {
		reviewed = append(reviewed, p.ToolCallID)
	}
	if !reflect.DeepEqual(approved, []string{"call_bash"}) || !reflect.DeepEqual(reviewed, []string{"call_rename"}) {
		t.Errorf("agent/approve for %v, agent/review for %v; want the command approved and the edit reviewed", approved, reviewed)
	}
}

// Cancelling the prompt while agent/approve is open stops waiting: the
// prompt ends cancelled and the command never runs.
func TestApproveCancelledWhileWaiting(t *testing.T) {
	asked := make(chan struct{})
	s := start(t, bashCalls("echo hi > out.txt"), setupOptions{caps: approveCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"),
			Approve: func(c context.Context, _ lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
				close(asked)
				<-c.Done() // the user never answers; the connection's end releases this
				return nil, c.Err()
			}}})
	s.initialize(nil)
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{}, &created); err != nil {
		t.Fatal(err)
	}
	_, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": created.SessionID, "prompt": "Write it."})
	select {
	case <-asked:
	case res := <-done:
		t.Fatalf("the prompt ended before asking: %s %v", res.Result, res.Err)
	}
	if err := s.ed.Notify(ctx(t), "agent/cancel", map[string]any{"sessionId": created.SessionID}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.Err != nil || !strings.Contains(string(res.Result), `"stopReason":"cancelled"`) {
		t.Fatalf("prompt = %s, %v; want cancelled", res.Result, res.Err)
	}
	// The call ends as any cancelled tool call does (as with the popup).
	if tr := s.toolResult(created.SessionID); tr.Status != "failed" || tr.Output != "cancelled" {
		t.Errorf("tool_result = %+v, want failed: cancelled", tr)
	}
	if _, err := os.Stat(filepath.Join(s.root, "out.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a command whose approval was cancelled ran")
	}
}
