package lsp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// heldApproval is an agent/approve handler that holds each request until
// the test releases it: the slow tool call a queued or steer message
// arrives during.
type heldApproval struct {
	asked   chan lsptest.ApproveParams
	release chan struct{}
}

func newHeldApproval() *heldApproval {
	return &heldApproval{asked: make(chan lsptest.ApproveParams, 4), release: make(chan struct{})}
}

func (h *heldApproval) handle(ctx context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
	h.asked <- p
	select {
	case <-h.release:
		return &lsptest.ApproveAnswer{OptionID: "allow_once"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// queueSetup is a daemon whose run_bash calls wait for a held approval,
// with a session made.
func queueSetup(t *testing.T, dialect string, script providertest.Script) (*setup, *heldApproval, string) {
	t.Helper()
	held := newHeldApproval()
	s := start(t, script, setupOptions{dialect: dialect, caps: approveCaps,
		handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: held.handle}})
	s.initialize(nil)
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{}, &ns); err != nil {
		t.Fatal(err)
	}
	return s, held, ns.SessionID
}

type queueWireItem struct {
	ID       string `json:"id"`
	Prompt   string `json:"prompt"`
	Delivery string `json:"delivery"`
}

// awaitQueueUpdate waits for an agent/update kind queue listing exactly
// prompts, and returns its items.
func (s *setup) awaitQueueUpdate(sessionID string, prompts ...string) []queueWireItem {
	s.t.Helper()
	var items []queueWireItem
	_, err := s.ed.WaitFor(ctx(s.t), func(n lsptest.Notification) bool {
		var u struct {
			SessionID string          `json:"sessionId"`
			Kind      string          `json:"kind"`
			Items     []queueWireItem `json:"items"`
		}
		if n.Method != "agent/update" || json.Unmarshal(n.Params, &u) != nil || u.Kind != "queue" || u.SessionID != sessionID {
			return false
		}
		var got []string
		for _, it := range u.Items {
			got = append(got, it.Prompt)
		}
		items = u.Items
		return strings.Join(got, "\x00") == strings.Join(prompts, "\x00")
	})
	if err != nil {
		s.t.Fatalf("no queue update listing %q: %v", prompts, err)
	}
	return items
}

type queueAnswer struct {
	SessionID  string `json:"sessionId"`
	StopReason string `json:"stopReason"`
	Text       string `json:"text"`
	Notice     string `json:"notice"`
	Usage      struct {
		PromptTokens, CompletionTokens, CachedTokens int
	} `json:"usage"`
}

func promptAnswer(t *testing.T, ch <-chan lsptest.CallResult, what string) queueAnswer {
	t.Helper()
	r := await.Event(t, ch, what)
	if r.Err != nil {
		t.Fatalf("%s: %v", what, r.Err)
	}
	var a queueAnswer
	if err := json.Unmarshal(r.Result, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func bothDialects(t *testing.T, body func(t *testing.T, dialect string)) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) { body(t, d) })
	}
}

// A steer message sent while a tool call waits reaches the next model
// request after the tool result, as a user message (in Messages a text
// block after the tool_result in the same user turn); its request is
// answered "steered", the steer update comes between the tool result and
// the answer, and the strict fake accepted the history.
func TestSteerDuringAToolCallReachesTheNextRequest(t *testing.T) {
	bothDialects(t, func(t *testing.T, dialect string) {
		s, held, sid := queueSetup(t, dialect, bashCalls("echo slow"))
		_, running := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Run it."})
		await.Event(t, held.asked, "the approval of the tool call")
		_, steer := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Also say hi.", "delivery": "steer"})
		items := s.awaitQueueUpdate(sid, "Also say hi.")
		if items[0].Delivery != "steer" || items[0].ID == "" {
			t.Fatalf("queue %+v", items)
		}
		close(held.release)

		if a := promptAnswer(t, steer, "the steer's answer"); a.StopReason != "steered" || a.Text != "" || a.SessionID != sid || a.Usage.PromptTokens != 0 {
			t.Fatalf("steer answer %+v", a)
		}
		if a := promptAnswer(t, running, "the running prompt"); a.StopReason != "end_turn" || a.Text != "Done." {
			t.Fatalf("prompt answer %+v", a)
		}
		s.awaitQueueUpdate(sid) // delivered: the queue is empty
		reqs := s.model.Requests()
		if len(reqs) != 2 || reqs[1].Rejected != "" {
			t.Fatalf("requests %+v", reqs)
		}
		checkSteerAfterToolResult(t, dialect, reqs[1], "Also say hi.")

		var order []string
		for _, u := range s.updates(sid) {
			switch u.Kind {
			case "tool_result", "steer", "text":
				if len(order) == 0 || order[len(order)-1] != u.Kind { // an answer may come in several deltas
					order = append(order, u.Kind)
				}
			}
		}
		if strings.Join(order, ",") != "tool_result,steer,text" {
			t.Errorf("update order %v", order)
		}
		var steerUpdate struct {
			ID     string `json:"id"`
			Prompt string `json:"prompt"`
		}
		for _, n := range s.ed.Notifications("agent/update") {
			if strings.Contains(string(n.Params), `"kind":"steer"`) {
				_ = json.Unmarshal(n.Params, &steerUpdate)
			}
		}
		if steerUpdate.ID != items[0].ID || steerUpdate.Prompt != "Also say hi." {
			t.Errorf("steer update %+v, want id %s", steerUpdate, items[0].ID)
		}
	})
}

// checkSteerAfterToolResult checks that the request's last message
// carries the steer text after the tool result: a user message after the
// tool message (Chat Completions), or a text block after the tool_result
// block of the last user message (Messages).
func checkSteerAfterToolResult(t *testing.T, dialect string, r providertest.Received, steer string) {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := r.Decode(&body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	last := body.Messages[len(body.Messages)-1]
	if dialect == openai.Name {
		var text string
		_ = json.Unmarshal(last.Content, &text)
		if strings.Join(roles, ",") != "system,user,assistant,tool,user" || text != steer {
			t.Fatalf("roles %v, last %s", roles, last.Content)
		}
		return
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(last.Content, &blocks)
	if strings.Join(roles, ",") != "user,assistant,user" || len(blocks) != 2 || blocks[0].Type != "tool_result" ||
		blocks[1].Type != "text" || blocks[1].Text != steer {
		t.Fatalf("roles %v, last %s", roles, last.Content)
	}
}

// Queued prompts run after the turn, in order, as last edited; a removed
// one is answered as removed; an id not in the queue is -32602.
func TestQueuedPromptsRunInOrder(t *testing.T) {
	bothDialects(t, func(t *testing.T, dialect string) {
		script := append(bashCalls("echo slow"), providertest.Turn{Text: "Second."})
		s, held, sid := queueSetup(t, dialect, script)
		_, first := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "First."})
		await.Event(t, held.asked, "the approval of the tool call")
		_, second := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Second?", "delivery": "queue"})
		s.awaitQueueUpdate(sid, "Second?")
		_, third := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Third?", "delivery": "queue"})
		items := s.awaitQueueUpdate(sid, "Second?", "Third?")

		var list struct {
			Items []queueWireItem `json:"items"`
		}
		if err := s.ed.Call(ctx(t), "agent/queue", map[string]any{"sessionId": sid}, &list); err != nil || len(list.Items) != 2 {
			t.Fatalf("agent/queue: %+v %v", list, err)
		}
		if err := s.ed.Call(ctx(t), "agent/queue", map[string]any{"sessionId": sid, "edit": items[0].ID, "prompt": "Second, edited."}, &list); err != nil ||
			list.Items[0].Prompt != "Second, edited." {
			t.Fatalf("edit: %+v %v", list, err)
		}
		if err := s.ed.Call(ctx(t), "agent/queue", map[string]any{"sessionId": sid, "remove": items[1].ID}, &list); err != nil || len(list.Items) != 1 {
			t.Fatalf("remove: %+v %v", list, err)
		}
		if a := promptAnswer(t, third, "the removed prompt"); a.StopReason != "cancelled" || a.Notice != "removed from the queue" || a.Text != "" {
			t.Fatalf("removed: %+v", a)
		}
		err := s.ed.Call(ctx(t), "agent/queue", map[string]any{"sessionId": sid, "remove": items[1].ID}, &list)
		if got := errorCode(t, err); got != -32602 || !strings.Contains(err.Error(), "not in the queue") {
			t.Fatalf("removing it again: %v", err)
		}

		close(held.release)
		if a := promptAnswer(t, first, "the first prompt"); a.Text != "Done." {
			t.Fatalf("first %+v", a)
		}
		if a := promptAnswer(t, second, "the queued prompt"); a.Text != "Second." || a.StopReason != "end_turn" {
			t.Fatalf("second %+v", a)
		}
		reqs := s.model.Requests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests", len(reqs))
		}
		if body := string(reqs[2].Body); strings.Index(body, "First.") > strings.Index(body, "Second, edited.") || strings.Contains(body, "Third?") {
			t.Fatalf("the third request: %s", body)
		}
	})
}

// agent/cancel cancels the running prompt and its steer messages; the
// queued prompts run next unless dropQueue; $/cancelRequest of a queued
// prompt removes just it.
func TestCancelDropsTheQueueOnlyIfAsked(t *testing.T) {
	for _, drop := range []bool{false, true} {
		name := map[bool]string{false: "kept", true: "dropped"}[drop]
		t.Run(name, func(t *testing.T) {
			bothDialects(t, func(t *testing.T, dialect string) {
				s, held, sid := queueSetup(t, dialect, providertest.Script{bashCalls("echo slow")[0], {Text: "Queued ran."}})
				_, first := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "First."})
				await.Event(t, held.asked, "the approval of the tool call")
				_, queued := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Next.", "delivery": "queue"})
				s.awaitQueueUpdate(sid, "Next.")
				id, other := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Other.", "delivery": "queue"})
				s.awaitQueueUpdate(sid, "Next.", "Other.")
				_, steer := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Hurry.", "delivery": "steer"})
				s.awaitQueueUpdate(sid, "Hurry.", "Next.", "Other.")

				if err := s.ed.Notify(ctx(t), "$/cancelRequest", map[string]any{"id": id}); err != nil {
					t.Fatal(err)
				}
				if a := promptAnswer(t, other, "the cancelled queued request"); a.StopReason != "cancelled" || a.Notice != "removed from the queue" {
					t.Fatalf("$/cancelRequest of a queued prompt: %+v", a)
				}
				s.awaitQueueUpdate(sid, "Hurry.", "Next.")
				if err := s.ed.Notify(ctx(t), "agent/cancel", map[string]any{"sessionId": sid, "dropQueue": drop}); err != nil {
					t.Fatal(err)
				}
				if a := promptAnswer(t, first, "the cancelled prompt"); a.StopReason != "cancelled" {
					t.Fatalf("first %+v", a)
				}
				if a := promptAnswer(t, steer, "the steer"); a.StopReason != "cancelled" || a.Notice != "removed from the queue" {
					t.Fatalf("steer %+v", a)
				}
				a := promptAnswer(t, queued, "the queued prompt")
				if drop && (a.StopReason != "cancelled" || a.Notice != "removed from the queue") {
					t.Fatalf("dropped %+v", a)
				}
				if !drop && (a.StopReason != "end_turn" || a.Text != "Queued ran.") {
					t.Fatalf("kept %+v", a)
				}
			})
		})
	}
}

// A steer message that arrives after the running prompt's last safe point
// (its model call answers without tool calls) runs as the next prompt and
// is answered as that prompt.
func TestSteerAfterTheLastSafePointRunsNext(t *testing.T) {
	bothDialects(t, func(t *testing.T, dialect string) {
		arrived, answer := make(chan struct{}, 1), make(chan struct{})
		slow := providertest.Turn{Text: "No tools needed.", Check: func(providertest.Received) error {
			arrived <- struct{}{}
			<-answer
			return nil
		}}
		s, _, sid := queueSetup(t, dialect, providertest.Script{slow, {Text: "About the steer."}})
		_, running := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Quick question."})
		await.Event(t, arrived, "the model request")
		_, steer := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "And one more.", "delivery": "steer"})
		s.awaitQueueUpdate(sid, "And one more.")
		close(answer)
		if a := promptAnswer(t, running, "the running prompt"); a.Text != "No tools needed." {
			t.Fatalf("prompt %+v", a)
		}
		if a := promptAnswer(t, steer, "the steer run as a prompt"); a.StopReason != "end_turn" || a.Text != "About the steer." {
			t.Fatalf("steer %+v", a)
		}
		if reqs := s.model.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "And one more.") {
			t.Fatalf("requests %+v", reqs)
		}
	})
}

// shutdown cancels the running prompt and removes the queued ones:
// nothing starts after it.
func TestShutdownDropsTheQueue(t *testing.T) {
	s, held, sid := queueSetup(t, openai.Name, bashCalls("echo slow"))
	_, running := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Run it."})
	await.Event(t, held.asked, "the approval of the tool call")
	_, queued := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": sid, "prompt": "Later.", "delivery": "queue"})
	s.awaitQueueUpdate(sid, "Later.")
	if err := s.ed.Call(ctx(t), "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	if a := promptAnswer(t, running, "the running prompt"); a.StopReason != "cancelled" {
		t.Fatalf("running %+v", a)
	}
	if a := promptAnswer(t, queued, "the queued prompt"); a.StopReason != "cancelled" || a.Notice != "removed from the queue" {
		t.Fatalf("queued %+v", a)
	}
	if n := len(s.model.Requests()); n != 1 {
		t.Fatalf("%d model requests after shutdown, want the first only", n)
	}
}
