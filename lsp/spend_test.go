package lsp_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// TestSpendCapStopsThePromptAndBudgetContinuesIt: with
// initializationOptions.spendLimit.sessionUsd at $0.12, the request after
// a call of a million input tokens of deepseek-flash ($0.15 off-peak,
// $0.30 at peak: the cap is below both, so the test holds at any hour;
// at $0.225 it failed off-peak, the next call's estimate being small) is
// not sent: agent/prompt answers spend_limit with the
// notice, and round_end carried the spend against the cap; "/budget
// sessionUsd=100" raises the cap and goes on with the same turn: the
// refused request is sent, with no new user message.
func TestSpendCapStopsThePromptAndBudgetContinuesIt(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}},
					Usage: provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 20}},
				{Text: "Done.", Usage: provider.Usage{PromptTokens: 1_000_100, CompletionTokens: 5}},
			}
			s := start(t, script, setupOptions{dialect: d, caps: fullCaps, autoApprove: true, files: map[string]string{"a.txt": "alpha\n"}})
			s.initialize(map[string]any{"spendLimit": map[string]any{"sessionUsd": 0.12, "warnAt": 0.5}})

			var r struct {
				SessionID  string `json:"sessionId"`
				StopReason string `json:"stopReason"`
				Text       string `json:"text"`
				Notice     string `json:"notice"`
				Command    string `json:"command"`
			}
			if err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"prompt": "Read a.txt."}, &r); err != nil {
				t.Fatal(err)
			}
			if r.StopReason != "spend_limit" || !strings.Contains(r.Notice, "the session's cap is $0.12") {
				t.Fatalf("result %+v, want spend_limit with the cap's notice", r)
			}
			if n := len(s.model.Requests()); n != 1 {
				t.Fatalf("the model got %d requests, want 1", n)
			}
			var spend *struct {
				SessionUSD    float64  `json:"sessionUsd"`
				SessionCapUSD float64  `json:"sessionCapUsd"`
				Warnings      []string `json:"warnings"`
			}
			for _, n := range s.ed.Notifications("agent/update") {
				if bytes.Contains(n.Params, []byte(`"kind":"round_end"`)) {
					var u struct {
						Spend *struct {
							SessionUSD    float64  `json:"sessionUsd"`
							SessionCapUSD float64  `json:"sessionCapUsd"`
							Warnings      []string `json:"warnings"`
						} `json:"spend"`
					}
					if err := json.Unmarshal(n.Params, &u); err != nil {
						t.Fatal(err)
					}
					spend = u.Spend
				}
			}
			if spend == nil || spend.SessionCapUSD != 0.12 || spend.SessionUSD < 0.15 || len(spend.Warnings) != 1 {
				t.Fatalf("round_end's spend = %+v, want the call's cost against the cap with one warning", spend)
			}

			if err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": r.SessionID, "prompt": "/budget sessionUsd=100"}, &r); err != nil {
				t.Fatal(err)
			}
			if r.StopReason != "end_turn" || r.Text != "Done." || r.Command != "/budget" {
				t.Fatalf("after /budget: %+v, want the turn's answer", r)
			}
			reqs := s.model.Requests()
			if len(reqs) != 2 || reqs[1].Rejected != "" {
				t.Fatalf("%d requests (%q), want the refused one sent", len(reqs), reqs[len(reqs)-1].Rejected)
			}
			if bytes.Contains(reqs[1].Body, []byte("budget")) || bytes.Count(reqs[1].Body, []byte("Read a.txt.")) != 1 {
				t.Errorf("the continued request has a new user message: %s", reqs[1].Body)
			}
		})
	}
}
