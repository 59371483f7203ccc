package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// approveReport is what nvim/approve.lua writes.
type approveReport struct {
	Popups      []popup    `json:"popups"`
	Approvals   []approval `json:"approvals"`
	FloatsAfter []float    `json:"floats_after"`
	Last        promptEnd  `json:"last"`
}

// A command comes as agent/approve: the float shows the question and the
// command while the picker offers the request's options by title;
// "Allow for this session" answers allow_session, so the second command of
// the same kind runs without asking, and both ran.
func TestApproveCommandForTheSession(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const answer = "Both files are there."
		model := providertest.NewServer(t, providertest.Script{
			{ToolCalls: []providertest.Call{{ID: "call_1", Name: "run_bash", Arguments: `{"command":"touch one.txt"}`}}},
			{ToolCalls: []providertest.Call{{ID: "call_2", Name: "run_bash", Arguments: `{"command":"touch two.txt"}`}}},
			{Text: answer},
		})
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep approveReport
		scenario{nvim: nvim, script: "approve.lua", root: root, model: model, config: map[string]any{
			"prompt": "Make two files", "answer": "Allow for this session",
		}}.run(t, &rep)

		if rep.Last.StopReason != "end_turn" || rep.Last.Text != answer {
			t.Errorf("prompt ended with %+v", rep.Last)
		}
		for _, f := range []string{"one.txt", "two.txt"} {
			if _, err := os.Stat(filepath.Join(root, f)); err != nil {
				t.Errorf("the command making %s did not run: %v", f, err)
			}
		}
		if len(rep.Approvals) != 1 || len(rep.Popups) != 1 {
			t.Fatalf("agent/approve requests %+v, popups %+v: want the first command asked, the second not", rep.Approvals, rep.Popups)
		}
		a := rep.Approvals[0]
		if a.Params.Tool != "run_bash" || a.Params.ToolCallID != "call_1" || a.Params.Command != "touch one.txt" ||
			len(a.Params.Hunks) != 0 || a.Params.SessionID == "" || a.Params.Summary == "" {
			t.Errorf("agent/approve = %+v", a.Params)
		}
		var kinds []string
		for _, o := range a.Params.Options {
			kinds = append(kinds, o.ID+"="+o.Kind)
		}
		if strings.Join(kinds, " ") != "allow_once=allow_once allow_session=allow_session allow_always_workspace=allow_always allow_always_user=allow_always deny=deny" {
			t.Errorf("options offered = %v", a.Params.Options)
		}
		if a.Answer == nil || a.Answer.OptionID != "allow_session" {
			t.Errorf("agent/approve answered %+v, want optionId allow_session", a.Answer)
		}
		p := rep.Popups[0]
		question := "agent-lsp wants to run run_bash (risk " + strings.ToUpper(a.Params.Risk) + "): " + a.Params.Summary
		if p.Prompt != question || p.Kind != "agent_lsp_approval" || strings.Join(p.Items, "|") != "Allow|Allow for this session|Always allow in this workspace|Always allow for me|Deny" {
			t.Errorf("approval asked %q (kind %q) with %q, want %q", p.Prompt, p.Kind, p.Items, question)
		}
		want := []string{question, "$ touch one.txt"}
		if len(a.Params.Reasons) > 0 {
			want = append(want, "Why "+strings.ToUpper(a.Params.Risk)+": "+strings.Join(a.Params.Reasons, "; "))
		}
		if len(p.Floats) != 1 || p.Floats[0].Filetype != "text" || strings.Join(p.Floats[0].Lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("float while asking = %+v, want the lines %q", p.Floats, want)
		} else if !ownColours(p.Floats[0]) {
			t.Errorf("the approval float's winhighlight is %q", p.Floats[0].Winhighlight)
		}
		if len(rep.FloatsAfter) != 0 {
			t.Errorf("floats left after the prompt: %+v", rep.FloatsAfter)
		}
	})
}

// trustReport is what nvim/trust.lua writes.
type trustReport struct {
	Popups []popup `json:"popups"`
	Server struct {
		Name   string `json:"name"`
		State  string `json:"state"`
		Trust  string `json:"trust"`
		Reason string `json:"reason"`
		Tools  int    `json:"tools"`
	} `json:"server"`
}

// A plain window/showMessageRequest (the workspace trust popup, which has
// no structured form) is a plain vim.ui.select: the message as its prompt,
// the actions as its items, no float, nothing read from the text; the
// action picked is the answer the daemon acts on.
func TestPlainPopupIsAPlainSelect(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		tests := []struct {
			answer    string
			wantTrust string
			wantState string
		}{
			{"Allow", "once", "ready"},
			{"Deny", "untrusted", "untrusted"},
		}
		for _, tt := range tests {
			t.Run(tt.answer, func(t *testing.T) {
				t.Parallel()
				mcpJSON, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
					"demo": map[string]any{"command": daemonBinary, "args": []string{"mcp-demo"}},
				}})
				if err != nil {
					t.Fatal(err)
				}
				root := workspace(t, map[string]string{"main.go": greetBefore, ".mcp.json": string(mcpJSON)})
				var rep trustReport
				scenario{nvim: nvim, script: "trust.lua", root: root, model: providertest.NewServer(t, nil),
					config: map[string]any{"server": "demo", "answer": tt.answer}}.run(t, &rep)

				if len(rep.Popups) != 1 {
					t.Fatalf("popups = %+v, want the one trust popup", rep.Popups)
				}
				p := rep.Popups[0]
				if !strings.HasPrefix(p.Prompt, "agent-lsp: ") || !strings.Contains(p.Prompt, "demo") ||
					!strings.Contains(p.Prompt, "mcp-demo") || !strings.HasSuffix(p.Prompt, "\nStart it?") {
					t.Errorf("popup prompt = %q, want the whole message", p.Prompt)
				}
				if p.Kind != "agent_lsp_approval" || strings.Join(p.Items, "|") != "Allow|Allow always for this workspace|Deny" {
					t.Errorf("popup kind %q, items %q", p.Kind, p.Items)
				}
				if len(p.Floats) != 0 {
					t.Errorf("floats while asking = %+v, want none", p.Floats)
				}
				s := rep.Server
				if s.Name != "demo" || s.Trust != tt.wantTrust || s.State != tt.wantState {
					t.Errorf("after %s the entry is %+v, want trust %q, state %q", tt.answer, s, tt.wantTrust, tt.wantState)
				}
				if tt.answer == "Allow" && s.Tools == 0 {
					t.Errorf("the allowed demo server mounts no tools: %+v", s)
				}
				if tt.answer == "Deny" && !strings.Contains(s.Reason, "denied") {
					t.Errorf("the denied entry's reason = %q", s.Reason)
				}
			})
		}
	})
}
