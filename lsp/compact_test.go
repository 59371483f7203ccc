package lsp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// bigFile is a file whose content dominates the requests that carry it.
func bigFile() string {
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&b, "line %d: the quick brown fox jumps over the lazy dog\n", i)
	}
	return b.String()
}

// noTools is a Check for the summary call: it is made without tools.
func noTools(r providertest.Received) error {
	var body map[string]json.RawMessage
	if err := r.Decode(&body); err != nil {
		return err
	}
	if _, ok := body["tools"]; ok {
		return fmt.Errorf("the summary request offers tools")
	}
	return nil
}

type compactResult struct {
	BeforeTokens int    `json:"beforeTokens"`
	AfterTokens  int    `json:"afterTokens"`
	Elided       int    `json:"elided"`
	Summarised   int    `json:"summarised"`
	Error        string `json:"error"`
}

// agent/compact elides the old tool output and summarises the older
// history: it answers the sizes, sends a compacted update, and the next
// request is smaller and carries the summary. round_end updates carry the
// call's cost and the session's running totals.
func TestCompactSession(t *testing.T) {
	u1 := provider.Usage{PromptTokens: 3000, CompletionTokens: 20, CachedTokens: 1000}
	u2 := provider.Usage{PromptTokens: 6000, CompletionTokens: 10, CachedTokens: 3000}
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_big", Name: "read_file", Arguments: `{"path":"big.txt"}`}}, Usage: u1},
		{Text: "big.txt lists 300 lines.", Usage: u2},
		{Text: "ok."},
		{Text: "SUMMARY-MARKER: the user read big.txt, 300 lines of a pangram.", Check: noTools,
			Usage: provider.Usage{PromptTokens: 5000, CompletionTokens: 30}},
		{Text: "done"},
	}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"big.txt": bigFile()}})
	s.initialize(map[string]any{"keep": 2})
	id := s.prompt(map[string]any{"prompt": "What is in big.txt?"}).SessionID
	var ends []update
	for _, u := range s.updates(id) {
		if u.Kind == "round_end" {
			ends = append(ends, u)
		}
	}
	if len(ends) != 2 || ends[0].Cost <= 0 || ends[0].Totals.PromptTokens != u1.PromptTokens ||
		ends[1].Totals.PromptTokens != u1.PromptTokens+u2.PromptTokens ||
		ends[1].Totals.CachedTokens != u1.CachedTokens+u2.CachedTokens ||
		ends[1].Totals.CompletionTokens != u1.CompletionTokens+u2.CompletionTokens ||
		fmt.Sprintf("%.9f", ends[1].Totals.Cost) != fmt.Sprintf("%.9f", ends[0].Cost+ends[1].Cost) {
		t.Fatalf("round_end updates = %+v", ends)
	}
	s.prompt(map[string]any{"sessionId": id, "prompt": "Thanks."})

	var res compactResult
	if err := s.ed.Call(ctx(t), "agent/compact", map[string]any{"sessionId": id}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Elided != 1 || res.Summarised == 0 || res.AfterTokens >= res.BeforeTokens || res.Error != "" {
		t.Fatalf("agent/compact = %+v", res)
	}
	var compacted []update
	for _, u := range s.updates(id) {
		if u.Kind == "compacted" {
			compacted = append(compacted, u)
		}
	}
	if len(compacted) != 1 || compacted[0].BeforeTokens != res.BeforeTokens || compacted[0].AfterTokens != res.AfterTokens ||
		compacted[0].Cost <= 0 || compacted[0].Totals.PromptTokens != u1.PromptTokens+u2.PromptTokens+5000 {
		t.Fatalf("compacted updates = %+v (result %+v)", compacted, res)
	}

	if r := s.prompt(map[string]any{"sessionId": id, "prompt": "Go on."}); r.Text != "done" {
		t.Fatalf("prompt after compaction = %+v", r)
	}
	reqs := s.model.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5", len(reqs))
	}
	for i, rq := range reqs {
		if rq.Rejected != "" {
			t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
		}
	}
	before, after := reqs[2].Body, reqs[4].Body
	if len(after) >= len(before) || !strings.Contains(string(after), "SUMMARY-MARKER") ||
		strings.Contains(string(after), "line 150:") {
		t.Errorf("request after compaction (%d bytes, before %d) = %s", len(after), len(before), after)
	}

	for _, params := range []map[string]any{{}, {"sessionId": "nope"}} {
		err := s.ed.Call(ctx(t), "agent/compact", params, nil)
		if got := errorCode(t, err); got != -32602 {
			t.Errorf("agent/compact %v: code %d (%v)", params, got, err)
		}
	}
}

// initializationOptions.budget and keep reach the session: a tiny budget
// compacts the history before the second model call of a prompt.
func TestBudgetFromInitializationOptions(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_big", Name: "read_file", Arguments: `{"path":"big.txt"}`}}},
		{Text: "SUMMARY-MARKER: the user asked about big.txt.", Check: noTools},
		{Text: "It lists 300 lines."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"big.txt": bigFile()}})
	s.initialize(map[string]any{"budget": 1, "keep": 2})
	r := s.prompt(map[string]any{"prompt": "What is in big.txt?"})
	if r.StopReason != "end_turn" || r.Text != "It lists 300 lines." {
		t.Fatalf("prompt = %+v", r)
	}
	var kinds []string
	for _, u := range s.updates(r.SessionID) {
		if u.Kind != "text" {
			kinds = append(kinds, u.Kind)
		}
	}
	if got := strings.Join(kinds, ","); got != "round_end,tool_call,tool_result,compacted,round_end" {
		t.Errorf("updates = %s", got)
	}
	for i, rq := range s.model.Requests() {
		if rq.Rejected != "" {
			t.Errorf("request %d refused by the strict fake (%d): %s", i, rq.Status, rq.Rejected)
		}
	}

	bad := start(t, nil, setupOptions{caps: fullCaps})
	_, err := bad.ed.Initialize(ctx(t), bad.root, bad.caps, map[string]any{"keep": -1})
	if got := errorCode(t, err); got != -32602 {
		t.Errorf("negative keep: code %d (%v)", got, err)
	}
}
