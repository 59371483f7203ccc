package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// queueReport is what nvim/queue.lua writes.
type queueReport struct {
	HeldQueue       []string         `json:"held_queue"`
	HeldStatusline  string           `json:"held_statusline"`
	EditedQueue     []string         `json:"edited_queue"`
	EditDefault     string           `json:"edit_default"`
	HeldTranscript  []transcriptLine `json:"held_transcript"`
	AfterQueue      []string         `json:"after_queue"`
	AfterStatusline string           `json:"after_statusline"`
	Popups          []popup          `json:"popups"`
	Transcript      []transcriptLine `json:"transcript"`
	InputStatusline string           `json:"input_statusline"`
	Last            promptEnd        `json:"last"`
	Subagents       []string         `json:"subagents_offered"`
	Subagent        []string         `json:"subagent"`
}

// Queue, steer and a subagent in the chat, against the daemon in both
// dialects: the turn's task call shows the child's tool call, answer and
// usage indented under it; while the turn's command waits for its
// approval, a queued prompt and a steer message wait dimmed at the chat's
// end (counted in the status line) and :AgentQueue edits the queued one;
// the steer message reaches the next model request after the command's
// result and shows there, the edited prompt runs after the turn. The
// steer key with nothing running sends an ordinary prompt.
func TestChatQueuesSteersAndNestsSubagents(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		for _, dialect := range []string{"openai", "anthropic"} {
			t.Run(dialect, func(t *testing.T) { queueScenario(t, nvim, dialect) })
		}
	})
}

func queueScenario(t *testing.T, nvim lsptest.Nvim, dialect string) {
	const (
		prompt   = "Find the greeting, then run the slow check"
		child    = "greet is in main.go."
		steer    = "Also say hi."
		queued   = "Then the queued one."
		edited   = "Then the edited one."
		steered  = "Done, and hi."
		queuedOK = "Queued ran."
		idle     = "Idle steer."
	)
	model := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_task", Name: "task",
			Arguments: `{"description":"Find the greeting","prompt":"Where does main.go greet?"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_c1", Name: "grep", Arguments: `{"pattern":"func greet"}`}}},
		{Text: child},
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: `{"command":"echo slow"}`}}},
		{Text: steered},
		{Text: queuedOK},
		{Text: "Hi."},
	})
	base := model.OpenAIBaseURL()
	if dialect == "anthropic" {
		base = model.AnthropicBaseURL()
	}
	root := workspace(t, map[string]string{"main.go": greetBefore})
	var rep queueReport
	scenario{nvim: nvim, script: "queue.lua", root: root, model: model, config: map[string]any{
		"provider": dialect, "provider_base_url": base, "prompt": prompt, "queued": queued, "steer": steer,
		"edited": edited, "queued_answer": queuedOK, "idle_steer": idle,
	}}.run(t, &rep)

	// The daemon lists a steer message first: it is delivered before any queued prompt runs.
	wantHeld := []string{"── 2 waiting (:AgentQueue edits or removes) ──", "↪ steer, at the next safe point: " + steer, "⋯ queued: " + queued}
	if strings.Join(rep.HeldQueue, "\n") != strings.Join(wantHeld, "\n") {
		t.Errorf("while the command waited the chat ended with %q, want %q", rep.HeldQueue, wantHeld)
	}
	if !strings.Contains(rep.HeldStatusline, "│ 2 queued") {
		t.Errorf("the status line while two messages waited: %q", rep.HeldStatusline)
	}
	if rep.EditDefault != queued || !slices.Contains(rep.EditedQueue, "⋯ queued: "+edited) || len(rep.Popups) != 2 ||
		strings.Join(rep.Popups[0].Items, "|") != "steer: "+steer+"|queued: "+queued {
		t.Errorf(":AgentQueue offered %+v, edit started from %q, then the queue showed %q", rep.Popups, rep.EditDefault, rep.EditedQueue)
	}
	if len(rep.AfterQueue) != 0 || strings.Contains(rep.AfterStatusline, "queued") {
		t.Errorf("after both ended the chat still shows %q, status %q", rep.AfterQueue, rep.AfterStatusline)
	}

	lines := texts(rep.Transcript)
	want := []string{
		"▶ " + prompt,
		"⚙ task Find the greeting  ✓ completed",
		"  │ ⚙ grep func greet  ✓ completed",
		"  │ " + child,
		"  └ subagent: 2 calls · in ",
		"⚙ run_bash $ echo slow  ✓ completed",
		"↪ " + steer + "   (steer)",
		steered,
		"▶ " + edited,
		queuedOK,
		"▶ " + idle,
		"Hi.",
	}
	if miss := inOrderPrefix(lines, want); miss != "" {
		t.Errorf("the transcript lacks %q (in order):\n%s", miss, strings.Join(lines, "\n"))
	}
	for _, l := range rep.Transcript {
		if strings.HasPrefix(l.Text, "↪ ") && !slices.Contains(l.Groups, "AgentLspUser") {
			t.Errorf("the steer line %q has groups %q", l.Text, l.Groups)
		}
	}
	if miss := inOrderPrefix(texts(rep.HeldTranscript), want[:5]); miss != "" {
		t.Errorf("while the command waited the transcript lacks %q:\n%s", miss, strings.Join(texts(rep.HeldTranscript), "\n"))
	}
	if rep.Last.StopReason != "end_turn" || rep.Last.Text != "Hi." {
		t.Errorf("the prompt sent with the steer key while idle ended %+v", rep.Last)
	}
	if !strings.Contains(rep.InputStatusline, "<M-CR> steers") {
		t.Errorf("the prompt line's status line does not name the steer key: %q", rep.InputStatusline)
	}

	sub := strings.Join(rep.Subagent, "\n")
	if strings.Join(rep.Subagents, "|") != "Find the greeting" || !strings.HasPrefix(sub, "Subagent: Find the greeting\n") ||
		!strings.Contains(sub, "▶ Where does main.go greet?") || !strings.Contains(sub, "⚙ grep func greet") ||
		!strings.Contains(sub, child) || strings.Contains(sub, prompt) {
		t.Errorf(":AgentSubagent offered %q and showed:\n%s", rep.Subagents, sub)
	}

	reqs := model.Requests()
	if len(reqs) != 7 {
		t.Fatalf("%d model requests, want 7", len(reqs))
	}
	for i, r := range reqs {
		if r.Rejected != "" {
			t.Fatalf("request %d rejected: %s", i, r.Rejected)
		}
	}
	if childReq := string(reqs[1].Body); strings.Contains(childReq, prompt) || !strings.Contains(childReq, "Where does main.go greet?") {
		t.Errorf("the child's first request carries the parent's prompt, or not its own:\n%s", childReq)
	}
	afterBash := string(reqs[4].Body)
	if result, at := strings.LastIndex(afterBash, "slow"), strings.LastIndex(afterBash, steer); result < 0 || at < result {
		t.Errorf("the request after the command does not carry the steer after its result:\n%s", afterBash)
	}
	if q := string(reqs[5].Body); !strings.Contains(q, edited) || strings.Contains(q, queued) {
		t.Errorf("the queued prompt's request does not carry its edited text:\n%s", q)
	}
}

// inOrderPrefix reports the first of want that no line (after the ones
// matched before it) starts with ("" when all are there, in order).
func inOrderPrefix(lines []string, want []string) string {
	next := 0
	for _, l := range lines {
		if next < len(want) && strings.HasPrefix(l, want[next]) {
			next++
		}
	}
	if next < len(want) {
		return want[next]
	}
	return ""
}

// :AgentCancel keeps the queue and drops the steer messages, :AgentCancel!
// drops the queue, against the daemon in both dialects
// (nvim/cancel_queue.lua): the dropped steer message is never drawn as
// delivered or run, the queued prompt runs after the cancelled turn, the
// prompt dropped by :AgentCancel! never reaches the model.
func TestChatCancelKeepsOrDropsTheQueue(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		for _, dialect := range []string{"openai", "anthropic"} {
			t.Run(dialect, func(t *testing.T) {
				const (
					steer   = "Never delivered."
					queued  = "Then the queued one."
					ran     = "Queued ran."
					dropped = "Dropped with the queue."
				)
				wait := func(id string) providertest.Turn {
					return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash",
						Arguments: `{"command":"until [ -e never ]; do sleep 0.1; done"}`}}}
				}
				model := providertest.NewServer(t, providertest.Script{wait("call_1"), {Text: ran}, wait("call_2")})
				base := model.OpenAIBaseURL()
				if dialect == "anthropic" {
					base = model.AnthropicBaseURL()
				}
				root := workspace(t, map[string]string{"main.go": greetBefore})
				var rep struct {
					AfterCancel []transcriptLine `json:"after_cancel"`
					Transcript  []transcriptLine `json:"transcript"`
				}
				scenario{nvim: nvim, script: "cancel_queue.lua", root: root, model: model, config: map[string]any{
					"provider": dialect, "provider_base_url": base, "first": "Run the slow check", "second": "Run it again",
					"queued": queued, "steer": steer, "queued_answer": ran, "dropped": dropped,
				}}.run(t, &rep)

				lines := texts(rep.Transcript)
				// The cancelled prompt's answer and the queued prompt's start race:
				// "⊘ cancelled" may come either side of the queued prompt's line.
				want := []string{"▶ Run the slow check", "⚙ run_bash $ until", "▶ " + queued, ran,
					"▶ Run it again", "⚙ run_bash $ until", "⊘ cancelled"}
				if miss := inOrderPrefix(lines, want); miss != "" {
					t.Errorf("the transcript lacks %q (in order):\n%s", miss, strings.Join(lines, "\n"))
				}
				for _, l := range lines {
					if strings.Contains(l, steer) || strings.Contains(l, dropped) {
						t.Errorf("a dropped message is in the transcript: %q\n%s", l, strings.Join(lines, "\n"))
					}
				}
				reqs := model.Requests()
				if len(reqs) != 3 {
					t.Fatalf("%d model requests, want 3", len(reqs))
				}
				for i, r := range reqs {
					if r.Rejected != "" {
						t.Errorf("request %d rejected: %s", i, r.Rejected)
					}
					if strings.Contains(string(r.Body), steer) || strings.Contains(string(r.Body), dropped) {
						t.Errorf("request %d carries a dropped message", i)
					}
				}
			})
		}
	})
}
