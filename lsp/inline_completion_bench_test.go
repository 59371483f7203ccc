package lsp_test

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// envBench is the number of completions TestInlineCompletionBench times;
// unset, it is skipped (bench/completion/run.sh sets it).
const envBench = "AGENT_LSP_BENCH_COMPLETION"

// TestInlineCompletionBench measures the daemon's own share of a
// completion against the FIM fake: request in → model request out (from
// the editor sending textDocument/inlineCompletion to the fake taking the
// model request in) and model answer in → response out (from the fake
// taking the request in to the editor holding the items: the fake's own
// answer, streamed at once, is inside it, as there is no moment to read
// off when its last byte left). Both include the loopback and pipe
// transit, so they bound the daemon's overhead from above. Then the
// requests the cache saves while a 40-character suggestion is typed one
// character at a time.
func TestInlineCompletionBench(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(envBench))
	if n <= 0 {
		t.Skipf("set %s=<completions> (bench/completion/run.sh)", envBench)
	}
	s := start(t, providertest.Script{}, setupOptions{quiet: true})
	s.initialize(map[string]any{"completion": map[string]any{"dialect": "deepseek", "baseURL": s.model.FIMBaseURL(),
		"model": "deepseek-coder", "apiKeyEnv": "none", "debounceMs": 0}})
	path, pos := s.openAt("a.go", "package main\n\nfunc add(a, b int) int {\n\t// 000000\n\t|\n}\n")
	params := map[string]any{"textDocument": map[string]any{"uri": lsptest.FileURI(path)}, "position": pos,
		"context": map[string]any{"triggerKind": automatic}}

	var in, out, total []time.Duration
	for i := range n {
		// The line above the cursor changes, so the cache never answers.
		line := protocol.Range{Start: protocol.Position{Line: 3, Character: 1}, End: protocol.Position{Line: 3, Character: 10}}
		if err := s.ed.Change(ctx(t), path, line, fmt.Sprintf("// %06d", i)); err != nil {
			t.Fatal(err)
		}
		s.model.Append(providertest.Turn{FIM: &providertest.FIMTurn{Chunks: []string{"return a + b\n", "}\n"}}})
		sent := time.Now()
		_, res := s.ed.CallAsync(ctx(t), "textDocument/inlineCompletion", params)
		if err := s.model.WaitRequests(ctx(t), i+1); err != nil {
			t.Fatal(err)
		}
		r := <-res
		got := time.Now()
		if r.Err != nil {
			t.Fatalf("completion %d: %v", i, r.Err)
		}
		req := s.model.FIMRequests()[i]
		in = append(in, req.Arrived.Sub(sent))
		out = append(out, got.Sub(req.Arrived))
		total = append(total, got.Sub(sent))
	}
	t.Logf("completions: %d", n)
	t.Logf("request in -> model request out: p50 %v p99 %v", percentile(in, 50), percentile(in, 99))
	t.Logf("model answer in -> response out (the fake's answer included): p50 %v p99 %v", percentile(out, 50), percentile(out, 99))
	t.Logf("editor round trip: p50 %v p99 %v", percentile(total, 50), percentile(total, 99))

	// Typing a 40-character suggestion through.
	const suggestion = `return fmt.Sprintf("%d-%d", a+b, a*b*10)`
	if len(suggestion) != 40 {
		t.Fatalf("the suggestion has %d characters", len(suggestion))
	}
	before := len(s.model.FIMRequests())
	s.model.Append(providertest.Turn{FIM: &providertest.FIMTurn{Text: suggestion}},
		providertest.Turn{FIM: &providertest.FIMTurn{Text: "}"}}) // after the last character: a new suggestion
	line := protocol.Range{Start: protocol.Position{Line: 3, Character: 1}, End: protocol.Position{Line: 3, Character: 10}}
	if err := s.ed.Change(ctx(t), path, line, "// typing"); err != nil {
		t.Fatal(err)
	}
	if l := s.inline(path, pos, automatic); len(l.Items) != 1 || l.Items[0].InsertText != suggestion {
		t.Fatalf("first suggestion: %+v", l)
	}
	var hits []time.Duration
	for i := range len(suggestion) {
		at := protocol.Position{Line: pos.Line, Character: pos.Character + uint32(i)}
		if err := s.ed.Change(ctx(t), path, protocol.Range{Start: at, End: at}, suggestion[i:i+1]); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		l := s.inline(path, protocol.Position{Line: at.Line, Character: at.Character + 1}, automatic)
		if i+1 < len(suggestion) {
			hits = append(hits, time.Since(start))
			if len(l.Items) != 1 || l.Items[0].InsertText != suggestion[i+1:] {
				t.Fatalf("after %d characters: %+v", i+1, l)
			}
		}
	}
	calls := len(s.model.FIMRequests()) - before
	requests := len(suggestion) + 1
	t.Logf("typing a %d-character suggestion: %d completion requests, %d model requests, %d saved by the cache; a cache hit answers in p50 %v p99 %v",
		len(suggestion), requests, calls, requests-calls, percentile(hits, 50), percentile(hits, 99))
	if calls != 2 {
		t.Errorf("%d model requests while typing through, want 2 (the first suggestion, the next after it)", calls)
	}
}

func percentile(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}
