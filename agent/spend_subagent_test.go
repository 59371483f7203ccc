package agent_test

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A subagent's model calls count against the parent's spend caps: after
// the parent's call ($0.10) and its child's ($0.10), the parent's next
// request would cross the $0.15 cap and is not sent.
func TestSubagentCostsCountAgainstTheCap(t *testing.T) {
	inBothDialects(t, func(t *testing.T, dialect string) {
		srv := providertest.NewServer(t, providertest.Script{
			{ToolCalls: []providertest.Call{{ID: "call_t1", Name: "task", Arguments: `{"description":"look","prompt":"investigate parser ONE"}`}}, Usage: callUsage},
			{Text: "the child's summary", Usage: callUsage},
			{Text: "never sent"},
		})
		root := javaProject(t)
		sp := agent.NewSpend(agent.SpendLimit{SessionUSD: 0.15}, nil, root, spendClock)
		s := sessionWith(t, dialect, srv, root, func(c *agent.Config) {
			p := spendPricing
			c.Pricing, c.Now, c.Spend, c.MaxTokens = &p, spendClock, sp, 1000
			withTaskTool(t)(c)
		})
		o := s.Prompt(t.Context(), "Where is parser one?", nil)
		if o.StopReason != agent.StopSpendLimit || len(srv.Requests()) != 2 {
			t.Fatalf("outcome %+v after %d requests; want spend_limit after the parent's and the child's", o, len(srv.Requests()))
		}
		if got := sp.Status().SessionUSD; got < 0.2 || got > 0.21 {
			t.Errorf("session spend $%.4f, want the two calls' $0.20", got)
		}
	})
}
