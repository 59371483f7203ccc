package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// TestOverBudgetRequestNotSent: a 4,096-token llama.cpp server, a budget of
// 80% of it, and two file reads whose results alone pass it: the tool
// results are cut (head, tail and a note) before each request goes out, so
// no request the estimator believed over budget is sent and the server
// refuses nothing.
func TestOverBudgetRequestNotSent(t *testing.T) {
	const window, budget = 4096, 4096 * 8 / 10
	root := t.TempDir()
	for _, name := range []string{"a.go", "b.go"} {
		var b strings.Builder
		for i := 0; b.Len() < 14*1024; i++ {
			fmt.Fprintf(&b, "func %s%04d(x int) int { return x*%d + %d // a line of a big file }\n", name[:1], i, i, i*7)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"a.go"}`}}},
		{ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"b.go"}`}}},
		{Text: "two files of helpers."},
	}, providertest.WithSeed(14), providertest.WithContextLimit(window, providertest.LimitLlamaCpp))
	s, e := calibSession(t, srv, root, budget)
	s.cfg.Keep = 50 // nothing old enough to summarise: only cutting the results can help
	var compacted int
	o := s.Prompt(t.Context(), "What is in a.go and b.go?", ListenerFunc(func(ev Event) {
		if ev.Kind == EventCompacted {
			compacted++
		}
	}))
	if o.StopReason != StopEndTurn || o.Err != nil || o.Text != "two files of helpers." {
		t.Fatalf("outcome = %+v", o)
	}
	rq, tokens := srv.Requests(), srv.RequestTokens()
	e.mu.Lock()
	est := e.est
	e.mu.Unlock()
	if len(rq) != 3 || len(est) != 3 {
		t.Fatalf("%d requests, %d estimates; want 3", len(rq), len(est))
	}
	largest := 0
	for i := range rq {
		largest = max(largest, tokens[i])
		t.Logf("request %d: %d bytes, estimate %d, server's count %d, refused %q", i+1, len(rq[i].Body), est[i], tokens[i], rq[i].Rejected)
		if est[i] > budget {
			t.Errorf("request %d sent with an estimate of %d over the budget of %d", i+1, est[i], budget)
		}
	}
	t.Logf("largest request sent: %d tokens by the server's count (window %d, budget %d)", largest, window, budget)
	if srv.Overflows() != 0 || largest >= window {
		t.Errorf("%d refused, largest request %d tokens: want none refused and every request under %d", srv.Overflows(), largest, window)
	}
	if !strings.Contains(string(rq[2].Body), "elided to fit the model's context window") {
		t.Error("the last request does not say what was elided")
	}
	if compacted == 0 {
		t.Error("no compacted event")
	}
}
