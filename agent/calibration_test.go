package agent

import (
	"context"
	"fmt"
	"iter"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// estimating records, for every request the loop sends, what the session's
// estimator believed its size to be (calibrated) and the from-scratch
// estimate (raw), taken at the moment the request leaves.
type estimating struct {
	p provider.Provider

	mu       sync.Mutex
	s        *Session
	est, raw []int
	budget   []int
}

func (e *estimating) Stream(ctx context.Context, req provider.Request) iter.Seq[provider.Event] {
	e.mu.Lock()
	s := e.s
	s.mu.Lock()
	e.est = append(e.est, s.calib.estimate(req.Messages, req.Tools))
	e.raw = append(e.raw, estimateTools(req.Tools)+estimateMessages(req.Messages))
	e.budget = append(e.budget, s.model.budget)
	s.mu.Unlock()
	e.mu.Unlock()
	return e.p.Stream(ctx, req)
}

// calibSession is a session on srv (OpenAI dialect) whose requests are
// measured by the returned estimating, over a workspace at root.
func calibSession(t *testing.T, srv *providertest.Server, root string, budget int) (*Session, *estimating) {
	t.Helper()
	p, err := provider.NewHTTP(provider.HTTPOptions{APIKey: "test-key", Client: srv.Client(),
		Dialect: openai.NewDialect(), BaseURL: srv.OpenAIBaseURL()})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	e := &estimating{p: p}
	s := NewSession(Config{Provider: e, Model: "deepseek-flash", MaxTokens: 1024, Budget: budget, Tools: reg,
		Env:  &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(permission.AutoApprover{})}, SystemPrompt(ws, "linux", "/bin/bash"))
	e.mu.Lock()
	e.s = s
	e.mu.Unlock()
	return s, e
}

// readingScript reads files f00.go … f(n-1).go one a round, then answers:
// n+1 rounds.
func readingScript(n int) providertest.Script {
	var s providertest.Script
	for i := range n {
		s = append(s, providertest.Turn{ToolCalls: []providertest.Call{{Name: "read_file",
			Arguments: fmt.Sprintf(`{"path":"f%02d.go"}`, i)}}})
	}
	return append(s, providertest.Turn{Text: "read them all."})
}

// sourceFiles writes n Go files of varied sizes (about size bytes each,
// ±50%) into a temp workspace.
func sourceFiles(t *testing.T, n, size int) string {
	t.Helper()
	root := t.TempDir()
	for i := range n {
		var b strings.Builder
		want := size/2 + (i*7919)%size
		for j := 0; b.Len() < want; j++ {
			fmt.Fprintf(&b, "func f%02d_%03d(x int) int { return x*%d + %d } // helper\n", i, j, j, i*j)
		}
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.go", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func relErr(est, server int) float64 {
	return math.Abs(float64(est-server)) / float64(server)
}

// TestCalibrationShrinksUnderestimate: a 30-round session against a server
// that counts tokens its own way (the JSON body / 4, well above the
// estimator's text / 4): the estimator's error is measured per request
// against the server's count, uncalibrated (round 1, and the from-scratch
// estimate of every round) and calibrated (rounds 2–30, each calibrated by
// the usage of the round before).
func TestCalibrationShrinksUnderestimate(t *testing.T) {
	const rounds = 30
	srv := providertest.NewServer(t, readingScript(rounds-1), providertest.WithSeed(14),
		providertest.WithContextLimit(1<<20, providertest.LimitLlamaCpp)) // reports its count as usage
	s, e := calibSession(t, srv, sourceFiles(t, rounds-1, 1200), 0)
	o := s.Prompt(t.Context(), "Read every file.", nil)
	if o.StopReason != StopEndTurn || o.Err != nil {
		t.Fatalf("outcome = %+v", o)
	}
	server := srv.RequestTokens()
	e.mu.Lock()
	est, raw := e.est, e.raw
	e.mu.Unlock()
	if len(server) != rounds || len(est) != rounds {
		t.Fatalf("%d requests, %d estimates; want %d", len(server), len(est), rounds)
	}
	var sumRaw, worstRaw, sumCal, worstCal float64
	for i := range rounds {
		r := relErr(raw[i], server[i])
		sumRaw, worstRaw = sumRaw+r, max(worstRaw, r)
		if i > 0 {
			c := relErr(est[i], server[i])
			sumCal, worstCal = sumCal+c, max(worstCal, c)
		}
	}
	first := relErr(est[0], server[0])
	meanCal := sumCal / (rounds - 1)
	t.Logf("round 1 (uncalibrated): estimate %d, server %d, error %.1f%% (server %.0f%% above the estimate)",
		est[0], server[0], 100*first, 100*(float64(server[0])/float64(est[0])-1))
	t.Logf("uncalibrated estimate, all %d rounds: mean error %.1f%%, worst %.1f%%", rounds, 100*sumRaw/rounds, 100*worstRaw)
	t.Logf("calibrated estimate, rounds 2-%d: mean error %.2f%%, worst %.2f%%", rounds, 100*meanCal, 100*worstCal)
	if sumRaw/rounds < 0.15 {
		t.Fatalf("uncalibrated mean error %.1f%%: the server's count should be about 20%% above the raw estimate for this test to mean anything",
			100*sumRaw/rounds)
	}
	if meanCal >= 0.05 {
		t.Errorf("mean calibrated error %.2f%%, want under 5%%", 100*meanCal)
	}
}
