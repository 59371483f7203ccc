package e2e

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// rewindReport is what nvim/rewind.lua writes.
type rewindReport struct {
	FirstLast       promptEnd `json:"first_last"`
	SecondLast      promptEnd `json:"second_last"`
	AfterEdit       string    `json:"after_edit"`
	AfterRewind     string    `json:"after_rewind"`
	DiskAfterRewind string    `json:"disk_after_rewind"`
	AfterUndo       string    `json:"after_undo"`
	Picker          struct {
		Prompt string   `json:"prompt"`
		Items  []string `json:"items"`
	} `json:"picker"`
	Transcript    []string `json:"transcript"`
	Notifications []struct {
		Message string `json:"message"`
	} `json:"notifications"`
}

// :AgentRewind: after a prompt edited main.go, the picker lists its
// checkpoint; :AgentRewind 1 puts the buffer (and, saved, the file) back
// as before the prompt, says so in the chat, and drops the prompt from the
// conversation (the next request lacks it); `u` brings the agent's edit
// back.
func TestRewindRestoresBuffer(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const (
			firstPrompt  = "Capitalise the greeting"
			secondPrompt = "Start over"
		)
		model := providertest.NewServer(t, providertest.Script{
			{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: greetEdit}}},
			{Text: "Capitalised."},
			{Text: "Fresh start."},
		})
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep rewindReport
		scenario{nvim: nvim, script: "rewind.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "first_prompt": firstPrompt, "second_prompt": secondPrompt,
		}}.run(t, &rep)

		if rep.FirstLast.StopReason != "end_turn" || rep.SecondLast.StopReason != "end_turn" {
			t.Fatalf("prompts ended with %+v and %+v", rep.FirstLast, rep.SecondLast)
		}
		if rep.SecondLast.SessionID != rep.FirstLast.SessionID {
			t.Errorf("the prompts ran in sessions %q and %q, want one", rep.FirstLast.SessionID, rep.SecondLast.SessionID)
		}
		if rep.AfterEdit != greetAfter {
			t.Fatalf("after the edit the buffer is %q, want %q", rep.AfterEdit, greetAfter)
		}
		if len(rep.Picker.Items) != 1 || !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d`).MatchString(rep.Picker.Items[0]) ||
			!strings.Contains(rep.Picker.Items[0], firstPrompt) || !strings.HasSuffix(rep.Picker.Items[0], "(main.go)") {
			t.Errorf(":AgentRewind offered %q", rep.Picker.Items)
		}
		if rep.AfterRewind != greetBefore || rep.DiskAfterRewind != greetBefore {
			t.Errorf("after :AgentRewind 1 the buffer is %q and the file %q, want %q", rep.AfterRewind, rep.DiskAfterRewind, greetBefore)
		}
		if rep.AfterUndo != greetAfter {
			t.Errorf("u after the rewind left %q, want the agent's edit back: %q", rep.AfterUndo, greetAfter)
		}
		want := []string{"↶ rewound to before prompt 1: " + firstPrompt, "  restored main.go", "▶ " + secondPrompt, "Fresh start."}
		if missing := inOrder(rep.Transcript, want); missing != "" {
			t.Errorf("transcript lacks %q (in order):\n%s", missing, strings.Join(rep.Transcript, "\n"))
		}
		if !slices.ContainsFunc(rep.Transcript, func(l string) bool {
			return strings.HasSuffix(l, "messages and 1 checkpoints dropped") && !strings.HasPrefix(l, "  0 ")
		}) {
			t.Errorf("transcript does not say what was dropped:\n%s", strings.Join(rep.Transcript, "\n"))
		}
		if len(rep.Notifications) != 0 {
			t.Errorf("notifications: %+v", rep.Notifications)
		}

		// The conversation went back too: the third request starts afresh.
		reqs := answeredRequests(t, model)
		if len(reqs) != 3 {
			t.Fatalf("%d model requests, want 3", len(reqs))
		}
		for _, m := range reqs[2].Messages {
			if strings.Contains(m.text(), firstPrompt) || m.Role == "tool" {
				t.Errorf("the request after the rewind still has %s message %q", m.Role, m.text())
			}
		}
		if last := reqs[2].Messages[len(reqs[2].Messages)-1]; last.Role != "user" || !strings.Contains(last.text(), secondPrompt) {
			t.Errorf("the request after the rewind ends with %+v", last)
		}
	})
}
