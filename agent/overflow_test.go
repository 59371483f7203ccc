package agent_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// overflowBodies are the real servers' answers to a request of 12,662
// tokens sent to a 4,096-token window, by dialect.
var overflowBodies = map[string]string{
	openai.Name: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it",` +
		`"type":"exceed_context_size_error","n_prompt_tokens":12662,"n_ctx":4096}}`,
	anthropic.Name: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 12662 tokens > 4096 maximum"}}`,
}

// bigWorkspace is a temp workspace with one 21 KB source file.
func bigWorkspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	var b strings.Builder
	for i := 0; b.Len() < 21*1024; i++ {
		fmt.Fprintf(&b, "func helper%04d(x int) int { return x*%d + %d // a line of the big file }\n", i, i, i*7)
	}
	if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// overflowScript reads the big file, is refused as too long faults times
// (the first answers of round 2), then answers.
func overflowScript(dialect string, faults int) providertest.Script {
	s := providertest.Script{{ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"big.go"}`}}}}
	for range faults {
		s = append(s, providertest.Turn{Fault: &providertest.Fault{Status: 400, Body: overflowBodies[dialect]}})
	}
	return append(s, providertest.Turn{Text: "big.go is a file of small helpers."})
}

func TestOverflowCompactsAndRetries(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, overflowScript(d, 1), providertest.WithSeed(14))
			s := newSession(t, d, srv, bigWorkspace(t))
			var compacted int
			o := s.Prompt(t.Context(), "What is in big.go?", agent.ListenerFunc(func(e agent.Event) {
				if e.Kind == agent.EventCompacted {
					compacted++
				}
			}))
			if o.StopReason != agent.StopEndTurn || o.Err != nil || o.Text != "big.go is a file of small helpers." {
				t.Fatalf("outcome = %+v", o)
			}
			if o.Rounds != 2 {
				t.Errorf("rounds = %d, want 2 (the refused request is no round)", o.Rounds)
			}
			rq := srv.Requests()
			if len(rq) != 3 {
				t.Fatalf("%d requests, want 3", len(rq))
			}
			refused, retried := len(rq[1].Body), len(rq[2].Body)
			t.Logf("%s: request sizes: round 1 %d bytes, refused %d bytes, retried %d bytes",
				d, len(rq[0].Body), refused, retried)
			if rq[1].Status != 0 || rq[2].Rejected != "" {
				t.Errorf("requests not answered as scripted: %+v / %+v", rq[1].Rejected, rq[2].Rejected)
			}
			if retried >= refused {
				t.Errorf("retried request %d bytes, not smaller than the refused %d", retried, refused)
			}
			if !strings.Contains(string(rq[2].Body), "elided to fit the model's context window") {
				t.Error("the retried request does not say what was elided")
			}
			if want := 4096 * 8 / 10; s.Budget() != want {
				t.Errorf("budget = %d, want %d (80%% of the server's 4096)", s.Budget(), want)
			}
			if compacted == 0 {
				t.Error("no compacted event")
			}
		})
	}
}

func TestOverflowTwiceFails(t *testing.T) {
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, overflowScript(d, 2), providertest.WithSeed(14))
			s := newSession(t, d, srv, bigWorkspace(t))
			o := s.Prompt(t.Context(), "What is in big.go?", nil)
			if o.StopReason != agent.StopError || o.Err == nil {
				t.Fatalf("outcome = %+v", o)
			}
			for _, want := range []string{"context window of 4096 tokens even after compaction", "llama.cpp -c", "Ollama num_ctx"} {
				if !strings.Contains(o.Err.Error(), want) {
					t.Errorf("error %q does not say %q", o.Err, want)
				}
			}
			if n := len(srv.Requests()); n != 3 {
				t.Errorf("%d requests, want 3 (one retry only)", n)
			}
		})
	}
}

// TestOverflowAcceptance: a 4,096-token server and a 21 KB file read: the
// prompt completes in both dialects, the refused request and the retry
// measured by the server's own count.
func TestOverflowAcceptance(t *testing.T) {
	kinds := map[string]providertest.LimitKind{openai.Name: providertest.LimitLlamaCpp, anthropic.Name: providertest.LimitAnthropic}
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			srv := providertest.NewServer(t, overflowScript(d, 0), providertest.WithSeed(14),
				providertest.WithContextLimit(4096, kinds[d]))
			s := newSession(t, d, srv, bigWorkspace(t))
			o := s.Prompt(t.Context(), "What is in big.go?", nil)
			if o.StopReason != agent.StopEndTurn || o.Err != nil || o.Text != "big.go is a file of small helpers." {
				t.Fatalf("outcome = %+v", o)
			}
			rq, tokens := srv.Requests(), srv.RequestTokens()
			for i := range rq {
				t.Logf("%s: request %d: %d bytes, %d tokens by the server's count, refused: %q",
					d, i+1, len(rq[i].Body), tokens[i], rq[i].Rejected)
			}
			if len(rq) != 3 || srv.Overflows() != 1 {
				t.Fatalf("%d requests, %d refused; want 3 and 1", len(rq), srv.Overflows())
			}
			if tokens[2] >= 4096 || tokens[2] >= tokens[1] {
				t.Errorf("retry of %d tokens: not under the window or not smaller than the refused %d", tokens[2], tokens[1])
			}
			if want := 4096 * 8 / 10; s.Budget() != want {
				t.Errorf("budget = %d, want %d", s.Budget(), want)
			}
		})
	}
}

// TestOverflowWithoutCounts: a refusal that gives no counts shrinks the
// window below what was sent, and the round is retried smaller.
func TestOverflowWithoutCounts(t *testing.T) {
	body := `{"error":{"message":"This model's context is too small for your messages.","type":"invalid_request_error","code":"context_length_exceeded"}}`
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"big.go"}`}}},
		{Fault: &providertest.Fault{Status: 400, Body: body}},
		{Text: "done"},
	}
	srv := providertest.NewServer(t, script, providertest.WithSeed(14))
	s := newSession(t, openai.Name, srv, bigWorkspace(t))
	before := s.Budget()
	o := s.Prompt(t.Context(), "What is in big.go?", nil)
	if o.StopReason != agent.StopEndTurn || o.Err != nil {
		t.Fatalf("outcome = %+v", o)
	}
	rq := srv.Requests()
	t.Logf("budget %d → %d; refused %d bytes, retried %d bytes", before, s.Budget(), len(rq[1].Body), len(rq[2].Body))
	if s.Budget() >= before || len(rq[2].Body) >= len(rq[1].Body) {
		t.Errorf("budget %d → %d, request %d → %d bytes: nothing shrank", before, s.Budget(), len(rq[1].Body), len(rq[2].Body))
	}
}

// TestOverflowCancelledDuringRecovery: a cancellation while the history is
// compacted ends the prompt as cancelled, not as failed.
func TestOverflowCancelledDuringRecovery(t *testing.T) {
	srv := providertest.NewServer(t, overflowScript(openai.Name, 1), providertest.WithSeed(14))
	s := newSession(t, openai.Name, srv, bigWorkspace(t))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	o := s.Prompt(ctx, "What is in big.go?", agent.ListenerFunc(func(e agent.Event) {
		if e.Kind == agent.EventCompacted {
			cancel()
		}
	}))
	if o.StopReason != agent.StopCancelled {
		t.Fatalf("outcome = %+v, want cancelled", o)
	}
}
