package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// approveCaps is an editor with every capability and agent/approve.
var approveCaps = func() lsptest.Capabilities { c := fullCaps; c.AgentApprove = true; return c }()

// The options of agent/approve, with and without "for this session".
var (
	optionsWithSession = []lsptest.ApproveOption{{ID: "allow_once", Title: "Allow", Kind: "allow_once"},
		{ID: "allow_session", Title: "Allow for this session", Kind: "allow_session"},
		{ID: "allow_always_workspace", Title: "Always allow in this workspace", Kind: "allow_always"},
		{ID: "allow_always_user", Title: "Always allow for me", Kind: "allow_always"}, {ID: "deny", Title: "Deny", Kind: "deny"}}
	optionsOnce = []lsptest.ApproveOption{{ID: "allow_once", Title: "Allow", Kind: "allow_once"}, {ID: "deny", Title: "Deny", Kind: "deny"}}
)

// noPopupFor fails the test when a client that declared why is shown a popup.
func noPopupFor(t *testing.T, why string) func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	return func(_ context.Context, p protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
		t.Errorf("a client with %s was shown a popup: %s", why, p.Message)
		return nil, errors.New("no popups here")
	}
}

// choose returns an agent/approve handler answering optionID ("" is a
// null answer) and recording the requests.
func choose(optionID string, asked chan<- lsptest.ApproveParams) func(context.Context, lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
	return func(_ context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
		if asked != nil {
			asked <- p
		}
		if optionID == "" {
			return nil, nil
		}
		return &lsptest.ApproveAnswer{OptionID: optionID}, nil
	}
}

// toolResult is the last tool_result update of the session.
func (s *setup) toolResult(sessionID string) update {
	s.t.Helper()
	var res update
	for _, u := range s.updates(sessionID) {
		if u.Kind == "tool_result" {
			res = u
		}
	}
	return res
}

// bashCalls is one run_bash call per command (call_a, call_b, …), then an
// answer.
func bashCalls(commands ...string) providertest.Script {
	var script providertest.Script
	for i, c := range commands {
		script = append(script, providertest.Turn{ToolCalls: []providertest.Call{{ID: "call_" + string(rune('a'+i)), Name: "run_bash", Arguments: bashArgs(c)}}})
	}
	return append(script, providertest.Turn{Text: "Done."})
}

// A command is asked about with agent/approve: the command, the risk
// (echo is low) in lower case, reasons [] when there are none, no path or
// hunks, the three options; the prompt's progress said it waits for the
// approval before the request came; allowing it once runs it, and no
// popup is shown.
func TestApproveRunBash(t *testing.T) {
	asked := make(chan lsptest.ApproveParams, 1)
	waiting := make(chan bool, 1)
	var s *setup
	allow := choose("allow_once", asked)
	s = start(t, bashCalls("echo approved"), setupOptions{caps: approveCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"),
			Approve: func(c context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
				// The editor reads in order: a report sent before the request is in.
				waiting <- slices.ContainsFunc(s.ed.Notifications("$/progress"), func(n lsptest.Notification) bool {
					return strings.Contains(string(n.Params), `"message":"Waiting for approval"`)
				})
				return allow(c, p)
			}}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Say it.", "workDoneToken": "tok-approve"})
	if !<-waiting {
		for _, n := range s.ed.Notifications("$/progress") {
			t.Logf("$/progress %s", n.Params)
		}
		t.Error("agent/approve came before the progress said Waiting for approval")
	}
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	p := <-asked
	if p.SessionID != r.SessionID || p.ToolCallID != "call_a" || p.Tool != "run_bash" || p.Risk != "low" ||
		p.Summary != "run: echo approved" || p.Command != "echo approved" || p.Path != "" || p.URI != "" || p.Hunks != nil {
		t.Errorf("approve params = %s", p.Raw)
	}
	if !reflect.DeepEqual(p.Options, optionsWithSession) {
		t.Errorf("options = %+v, want %+v", p.Options, optionsWithSession)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(p.Raw, &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw["reasons"]) != "[]" {
		t.Errorf("reasons = %s, want []", raw["reasons"])
	}
	for _, absent := range []string{"path", "uri", "hunks"} {
		if _, ok := raw[absent]; ok {
			t.Errorf("a command's agent/approve has %s: %s", absent, p.Raw)
		}
	}
	if res := s.toolResult(r.SessionID); res.Status != "completed" || !strings.Contains(res.Output, "approved") {
		t.Errorf("tool_result = %+v", res)
	}
}

// HIGH risk: the reasons say why and "for this session" is not offered;
// answering it anyway is a denial.
func TestApproveHighRiskOffersNoSession(t *testing.T) {
	asked := make(chan lsptest.ApproveParams, 1)
	s := start(t, bashCalls("git reset --hard"), setupOptions{caps: approveCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: choose("allow_session", asked)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Reset."})
	p := <-asked
	if p.Risk != "high" || p.Command != "git reset --hard" ||
		!reflect.DeepEqual(p.Reasons, []string{"git reset --hard discards uncommitted changes"}) {
		t.Errorf("approve params = %s", p.Raw)
	}
	if !reflect.DeepEqual(p.Options, optionsOnce) {
		t.Errorf("options = %+v, want %+v", p.Options, optionsOnce)
	}
	if res := s.toolResult(r.SessionID); res.Status != "denied" || res.Output != "denied by the user" {
		t.Errorf("tool_result = %+v", res)
	}
}

// "Allow for this session" is remembered: the same command again is not
// asked about.
func TestApproveAllowSessionIsRemembered(t *testing.T) {
	asked := make(chan lsptest.ApproveParams, 2)
	s := start(t, bashCalls("echo one", "echo two"), setupOptions{caps: approveCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: choose("allow_session", asked)}})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Say both."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	if len(asked) != 1 {
		t.Errorf("%d agent/approve requests, want 1 (the second command is allowed for the session)", len(asked))
	}
	var outs []string
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			if u.Status != "completed" {
				t.Errorf("tool_result = %+v", u)
			}
			outs = append(outs, strings.TrimSpace(u.Output))
		}
	}
	if len(outs) != 2 || !strings.Contains(outs[0], "one") || !strings.Contains(outs[1], "two") {
		t.Errorf("tool results = %q", outs)
	}
}

// Deny, a null answer and an unknown option are all "denied by the user";
// an error answering is a denial whose result says the editor did not
// answer. Nothing runs.
func TestApproveDenials(t *testing.T) {
	for name, tc := range map[string]struct {
		handler func(context.Context, lsptest.ApproveParams) (*lsptest.ApproveAnswer, error)
		output  string
	}{
		"deny":    {choose("deny", nil), "denied by the user"},
		"null":    {choose("", nil), "denied by the user"},
		"unknown": {choose("allow_always", nil), "denied by the user"},
		"error": {func(context.Context, lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
			return nil, errors.New("the approval view crashed")
		}, "approval failed: the editor did not answer the approval request: the approval view crashed"},
	} {
		t.Run(name, func(t *testing.T) {
			s := start(t, bashCalls("echo hi > out.txt"), setupOptions{caps: approveCaps,
				handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: tc.handler}})
			s.initialize(nil)
			r := s.prompt(map[string]any{"prompt": "Write it."})
			if r.StopReason != "end_turn" {
				t.Fatalf("result = %+v", r)
			}
			if res := s.toolResult(r.SessionID); res.Status != "denied" || res.Output != tc.output {
				t.Errorf("tool_result = %+v, want denied with %q", res, tc.output)
			}
			if out := toolMessage(t, s, 1, "call_a"); !strings.Contains(out, tc.output) {
				t.Errorf("the model read %q", out)
			}
			if _, err := os.Stat(filepath.Join(s.root, "out.txt")); !errors.Is(err, fs.ErrNotExist) {
				t.Error("a denied command ran")
			}
		})
	}
}
