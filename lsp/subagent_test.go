package lsp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// subagentUpdate is an agent/update with the subagent's mark.
type subagentUpdate struct {
	update
	ParentToolCallID string `json:"parentToolCallId"`
	CostKnown        *bool  `json:"costKnown"`
}

func (s *setup) subagentUpdates(sessionID string) []subagentUpdate {
	s.t.Helper()
	var out []subagentUpdate
	for _, n := range s.ed.Notifications("agent/update") {
		var u subagentUpdate
		if err := json.Unmarshal(n.Params, &u); err != nil {
			s.t.Fatalf("agent/update %s: %v", n.Params, err)
		}
		if u.SessionID == sessionID {
			out = append(out, u)
		}
	}
	return out
}

var taskCallIDs = []string{"call_t1", "call_t2", "call_t3"}

// threeSubagents is a parent's turn with three task calls, the three
// children's answers (each delayed by childDelay after its first frame)
// and the parent's answer.
func threeSubagents(childDelay time.Duration) (providertest.Script, provider.Usage) {
	child := func(text string, u provider.Usage) providertest.Turn {
		return providertest.Turn{Text: text, Usage: u, Fault: &providertest.Fault{Stall: childDelay, StallAfterFrames: 1}}
	}
	script := providertest.Script{
		{Text: "Three investigations.", ToolCalls: []providertest.Call{
			{ID: taskCallIDs[0], Name: "task", Arguments: `{"description":"one","prompt":"investigate parser ONE"}`},
			{ID: taskCallIDs[1], Name: "task", Arguments: `{"description":"two","prompt":"investigate parser TWO"}`},
			{ID: taskCallIDs[2], Name: "task", Arguments: `{"description":"three","prompt":"investigate parser THREE"}`},
		}, Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 40, CachedTokens: 700}},
		child("summary alpha", provider.Usage{PromptTokens: 200, CompletionTokens: 10}),
		child("summary beta", provider.Usage{PromptTokens: 210, CompletionTokens: 11, CachedTokens: 100}),
		child("summary gamma", provider.Usage{PromptTokens: 220, CompletionTokens: 12, CachedTokens: 200}),
		{Text: "They differ.", Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 30, CachedTokens: 900}},
	}
	var sum provider.Usage
	for _, turn := range script {
		sum = sum.Add(turn.Usage)
	}
	return script, sum
}

// TestSubagentsThroughTheDaemon is issue 28's acceptance line through
// lsptest, in both dialects: three task calls in one turn run at once,
// each child's requests hold only its own context, its progress arrives
// as the session's agent/update entries marked with parentToolCallId, the
// summaries are the task calls' results, the totals are the sum of every
// call, and agent/transcript opens a child's conversation.
func TestSubagentsThroughTheDaemon(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			const childDelay = time.Second
			script, sum := threeSubagents(childDelay)
			s := start(t, script, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true})
			s.initialize(nil)
			begin := time.Now()
			r := s.controlPrompt(map[string]any{"prompt": "How do the parsers differ? (parent-only context)"})
			elapsed := time.Since(begin)
			if r.StopReason != "end_turn" {
				t.Fatalf("result %+v", r)
			}
			t.Logf("%s: three children of %v each: the prompt took %v", dialect, childDelay, elapsed)
			if elapsed >= 3*childDelay {
				t.Errorf("the prompt took %v: the children ran one after the other", elapsed)
			}

			for _, req := range s.model.Requests()[1:4] {
				body := string(req.Body)
				if strings.Contains(body, "parent-only context") || strings.Contains(body, "Three investigations.") {
					t.Errorf("a child's request holds the parent's conversation: %s", body)
				}
				if strings.Count(body, "investigate parser ") != 1 {
					t.Errorf("a child's request holds another child's prompt: %s", body)
				}
				if got := decodeWire(t, req).toolNames(); got != "read_file,glob,grep" {
					t.Errorf("a child offers %s", got)
				}
			}

			var summaries []string
			children := map[string][]string{} // parentToolCallId → kinds
			var last subagentUpdate
			for _, u := range s.subagentUpdates(r.SessionID) {
				if u.ParentToolCallID != "" {
					children[u.ParentToolCallID] = append(children[u.ParentToolCallID], u.Kind)
					continue
				}
				if u.Kind == "tool_result" && u.Name == "task" {
					summaries = append(summaries, u.Output)
				}
				if u.Kind == "round_end" {
					last = u
				}
			}
			slices.Sort(summaries)
			if want := []string{"summary alpha", "summary beta", "summary gamma"}; !slices.Equal(summaries, want) {
				t.Errorf("task results %q, want %q", summaries, want)
			}
			for _, id := range taskCallIDs {
				if k := children[id]; !slices.Contains(k, "text") || !slices.Contains(k, "round_end") {
					t.Errorf("child %s's updates: %v", id, k)
				}
			}
			if len(children) != 3 {
				t.Errorf("updates of %d children: %v", len(children), children)
			}
			if got := last.Totals; got.PromptTokens != sum.PromptTokens || got.CompletionTokens != sum.CompletionTokens ||
				got.CachedTokens != sum.CachedTokens {
				t.Errorf("the last totals %+v, want the sum %+v", got, sum)
			}

			var tr struct {
				SessionID string            `json:"sessionId"`
				Entries   []json.RawMessage `json:"entries"`
				Totals    struct {
					PromptTokens int `json:"promptTokens"`
				} `json:"totals"`
			}
			s.call("agent/transcript", map[string]any{"sessionId": r.SessionID, "parentToolCallId": "call_t2"}, &tr)
			joined := ""
			for _, e := range tr.Entries {
				joined += string(e) + "\n"
			}
			if !strings.Contains(joined, `{"kind":"user","text":"investigate parser TWO"}`) ||
				!strings.Contains(joined, `"kind":"text"`) || tr.Totals.PromptTokens == 0 {
				t.Errorf("the child's transcript: %s %+v", joined, tr.Totals)
			}
			err := s.ed.Call(ctx(t), "agent/transcript", map[string]any{"sessionId": r.SessionID, "parentToolCallId": "nope"}, &tr)
			if err == nil || !strings.Contains(err.Error(), `no subagent of tool call "nope"`) {
				t.Errorf("an unknown parentToolCallId: %v", err)
			}
		})
	}
}

// TestSubagentEditAsksThroughTheEditor: a child given write_file asks the
// user through the session's popup, and its edit lands through
// workspace/applyEdit; the task call's result names the file.
func TestSubagentEditAsksThroughTheEditor(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_task", Name: "task",
					Arguments: `{"description":"notes","prompt":"write NOTES.md","tools":["write_file"]}`}}},
				{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file", Arguments: `{"path":"NOTES.md","content":"notes\n"}`}}},
				{Text: "Wrote NOTES.md."},
				{Text: "Done."},
			}
			asked := make(chan protocol.ShowMessageRequestParams, 4)
			s := start(t, script, setupOptions{dialect: dialect, caps: fullCaps,
				handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", asked)}})
			s.initialize(nil)
			r := s.controlPrompt(map[string]any{"prompt": "notes please"})
			if r.StopReason != "end_turn" {
				t.Fatalf("result %+v", r)
			}
			if len(asked) != 1 {
				t.Fatalf("%d popups, want the child's one", len(asked))
			}
			if p := <-asked; !strings.Contains(p.Message, "NOTES.md") {
				t.Errorf("popup %q", p.Message)
			}
			if len(s.ed.AppliedEdits()) != 1 {
				t.Errorf("%d edits applied", len(s.ed.AppliedEdits()))
			}
			var result, childResult subagentUpdate
			for _, u := range s.subagentUpdates(r.SessionID) {
				switch {
				case u.Kind == "tool_result" && u.ParentToolCallID == "call_task":
					childResult = u
				case u.Kind == "tool_result":
					result = u
				}
			}
			if childResult.Name != "write_file" || childResult.Status != "completed" {
				t.Errorf("the child's tool_result %+v", childResult)
			}
			if result.Name != "task" || result.Output != "Wrote NOTES.md.\n\nFiles touched: NOTES.md" {
				t.Errorf("the task's tool_result %+v", result)
			}
		})
	}
}

// TestCancelStopsSubagentsThroughTheDaemon: agent/cancel ends a prompt
// whose three children wait on a model that never answers.
func TestCancelStopsSubagentsThroughTheDaemon(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			script, _ := threeSubagents(providertest.Forever)
			s := start(t, script[:4], setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true})
			s.initialize(nil)
			var created struct {
				SessionID string `json:"sessionId"`
			}
			s.call("agent/newSession", map[string]any{}, &created)
			_, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": created.SessionID, "prompt": "go"})
			if err := s.model.WaitRequests(ctx(t), 4); err != nil {
				t.Fatalf("the three children were never in flight at once: %v", err)
			}
			begin := time.Now()
			if err := s.ed.Notify(ctx(t), "agent/cancel", map[string]any{"sessionId": created.SessionID}); err != nil {
				t.Fatal(err)
			}
			res := await.Event(t, done, "the prompt to end on the cancellation")
			took := time.Since(begin)
			t.Logf("%s: agent/cancel to the prompt's answer: %v", dialect, took)
			if took > time.Second {
				t.Errorf("cancel took %v", took)
			}
			if res.Err != nil || !strings.Contains(string(res.Result), `"stopReason":"cancelled"`) {
				t.Fatalf("prompt %s %v", res.Result, res.Err)
			}
		})
	}
}
