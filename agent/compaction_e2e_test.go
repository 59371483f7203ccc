package agent_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// fakeModels fronts two strict fakes with one URL: requests with tools (the
// conversation's rounds) go to rounds, requests without (compaction
// summaries, whose moment the test cannot script) go to summaries. Both
// fakes validate every request they get.
type fakeModels struct {
	rounds, summaries *providertest.Server
	url               string
}

func newFakeModels(t *testing.T, rounds, summaries providertest.Script) *fakeModels {
	t.Helper()
	f := &fakeModels{
		rounds:    providertest.NewServer(t, rounds, providertest.WithSeed(40)),
		summaries: providertest.NewServer(t, summaries, providertest.WithSeed(41)),
	}
	router := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(body, &fields) // a bad body is the strict fake's to refuse
		if _, ok := fields["tools"]; ok {
			f.rounds.ServeHTTP(w, r)
		} else {
			f.summaries.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(router.Close)
	f.url = router.URL
	return f
}

func (f *fakeModels) provider(t *testing.T, dialect string) provider.Provider {
	t.Helper()
	opts := provider.HTTPOptions{APIKey: "test-key"}
	switch dialect {
	case openai.Name:
		opts.Dialect, opts.BaseURL = openai.NewDialect(), f.url
	case anthropic.Name:
		opts.Dialect, opts.BaseURL = anthropic.NewDialect(), f.url+"/anthropic"
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// builtinConfig is the binary's wiring around p: built-in tools over root,
// everything approved, thinking on (so reasoning round-trips are checked).
func builtinConfig(t *testing.T, p provider.Provider, root string) (agent.Config, string) {
	t.Helper()
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	return agent.Config{
		Provider:  p,
		Model:     "deepseek-flash",
		MaxTokens: 4096,
		Thinking:  provider.Thinking{Enabled: true},
		Tools:     reg,
		Env:       &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate:      permission.NewPolicy(permission.AutoApprover{}),
	}, agent.SystemPrompt(ws, "linux", "/bin/bash")
}

var javaFiles = []string{
	"src/main/java/demo/Calculator.java",
	"src/main/java/demo/Main.java",
	"src/test/java/demo/CalculatorTest.java",
}

// longSessionScript is 20 prompts of two rounds each: read a file (with
// reasoning), then answer.
func longSessionScript(prompts int) providertest.Script {
	var s providertest.Script
	for i := range prompts {
		file := javaFiles[i%len(javaFiles)]
		s = append(s,
			providertest.Turn{
				Reasoning: fmt.Sprintf("Question %d is about %s; I need to read it first.", i+1, file),
				ToolCalls: []providertest.Call{{Name: "read_file", Arguments: fmt.Sprintf(`{"path":%q}`, file)}},
			},
			providertest.Turn{Text: fmt.Sprintf("Answer %d: %s is a small Java source file of the demo project; it looks fine.", i+1, file)},
		)
	}
	return s
}

func summaryScript(n int) providertest.Script {
	s := make(providertest.Script, n)
	for i := range s {
		s[i] = providertest.Turn{Text: fmt.Sprintf("Summary %d: the user asked about the demo project's Java files one at a time; each was read and found fine.", i+1)}
	}
	return s
}

// TestLongSessionCompactsAndKeepsCacheablePrefix is the acceptance run: 40
// rounds with --budget 4000 --keep 4 through both dialects.
func TestLongSessionCompactsAndKeepsCacheablePrefix(t *testing.T) {
	const prompts = 20
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			fakes := newFakeModels(t, longSessionScript(prompts), summaryScript(prompts))
			cfg, sys := builtinConfig(t, fakes.provider(t, d), javaProject(t))
			cfg.Budget, cfg.Keep = 4000, 4
			s := agent.NewSession(cfg, sys)

			// compactedBefore[k]: the history was compacted before round request k.
			compactedBefore := map[int]bool{}
			var roundsSeen, compactions int
			l := agent.ListenerFunc(func(e agent.Event) {
				switch e.Kind {
				case agent.EventRoundEnd:
					roundsSeen++
				case agent.EventCompacted:
					compactions++
					compactedBefore[roundsSeen] = true
					t.Logf("compacted before round request %d: %d → %d tokens (summary call cost $%.6f)", roundsSeen, e.BeforeTokens, e.AfterTokens, e.Cost)
					if e.AfterTokens >= e.BeforeTokens {
						t.Errorf("compaction before round request %d: %d → %d tokens", roundsSeen, e.BeforeTokens, e.AfterTokens)
					}
				}
			})
			for i := range prompts {
				o := s.Prompt(t.Context(), fmt.Sprintf("Question %d: what is in %s?", i+1, javaFiles[i%len(javaFiles)]), l)
				if o.StopReason != agent.StopEndTurn || o.Rounds != 2 {
					t.Fatalf("prompt %d: %+v", i+1, o)
				}
			}
			rounds, summaries := fakes.rounds.Requests(), fakes.summaries.Requests()
			for _, rq := range append(rounds, summaries...) {
				if rq.Rejected != "" {
					t.Errorf("request refused (%d): %s", rq.Status, rq.Rejected)
				}
			}
			if len(rounds) != 2*prompts {
				t.Fatalf("%d round requests, want %d", len(rounds), 2*prompts)
			}
			if compactions == 0 || len(summaries) == 0 {
				t.Fatalf("%d compactions, %d summary calls: budget 4000 must force both", compactions, len(summaries))
			}

			var prefixBytes, totalBytes, pairs int
			minShare := 1.0
			for k := 1; k < len(rounds); k++ {
				prev, next := promptParts(t, d, rounds[k-1].Body), promptParts(t, d, rounds[k].Body)
				if !bytes.Equal(prev.head, next.head) {
					t.Errorf("request %d: tools or system prompt changed", k)
				}
				if compactedBefore[k] {
					checkSummaryPlacement(t, d, next)
					continue
				}
				if len(prev.messages) > len(next.messages) {
					t.Fatalf("request %d has fewer messages than %d without a compaction", k, k-1)
				}
				for i, m := range prev.messages {
					if !bytes.Equal(m, next.messages[i]) {
						t.Fatalf("request %d: message %d differs from request %d's without a compaction:\n%s\n%s", k, i, k-1, m, next.messages[i])
					}
				}
				p, n := prev.bytes(), next.bytes()
				shared := commonPrefix(p, n)
				prefixBytes += shared
				totalBytes += len(n)
				pairs++
				minShare = min(minShare, float64(shared)/float64(len(n)))
			}
			share := float64(prefixBytes) / float64(totalBytes)
			t.Logf("%s: %d round requests, %d compactions (%d summary calls); over %d pairs without compaction, %.3f of prompt bytes are an unchanged prefix of the previous request (lowest pair %.3f)",
				d, len(rounds), compactions, len(summaries), pairs, share, minShare)
			if share < 0.9 {
				t.Errorf("cached-prefix share %.3f, want ≥ 0.9", share)
			}
			tot := s.Totals()
			if tot.Calls != len(rounds)+len(summaries) {
				t.Errorf("totals count %d calls, want %d", tot.Calls, len(rounds)+len(summaries))
			}
		})
	}
}

// prompt is a request in prompt order (what a prefix cache matches on):
// the tool list and system prompt, then the messages, each re-encoded with
// its cache_control markers removed. The Messages dialect moves a
// breakpoint onto the newest message of every request, so request N's last
// message carries a marker that request N+1's copy of it does not; the
// marker is an instruction to the cache, not prompt content, so it is
// stripped before comparing.
type prompt struct {
	head     []byte
	messages [][]byte
}

func (p prompt) bytes() []byte {
	return append(append([]byte(nil), p.head...), bytes.Join(p.messages, nil)...)
}

func promptParts(t *testing.T, dialect string, body []byte) prompt {
	t.Helper()
	var req struct {
		Tools    any   `json:"tools"`
		System   any   `json:"system"`
		Messages []any `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var p prompt
	p.head = canonicalJSON(t, []any{req.Tools, req.System})
	for _, m := range req.Messages {
		p.messages = append(p.messages, canonicalJSON(t, m))
	}
	return p
}

func canonicalJSON(t *testing.T, v any) []byte {
	t.Helper()
	out, err := json.Marshal(stripCacheControl(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func stripCacheControl(v any) any {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "cache_control")
		for k, x := range v {
			v[k] = stripCacheControl(x)
		}
	case []any:
		for i, x := range v {
			v[i] = stripCacheControl(x)
		}
	}
	return v
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// checkSummaryPlacement: after a compaction that summarised, the summary is
// right after the system prompt: a system message in Chat Completions, user
// text opening the messages in Messages (never part of the top-level
// system, which the head comparison already holds constant).
func checkSummaryPlacement(t *testing.T, dialect string, p prompt) {
	t.Helper()
	i := 0
	if dialect == openai.Name {
		i = 1 // messages[0] is the system prompt
	}
	if i >= len(p.messages) {
		t.Fatalf("no message after the system prompt")
	}
	first := string(p.messages[i])
	if !strings.Contains(first, "Summary of the earlier conversation") && !strings.Contains(first, "[output elided") {
		// Eliding alone may have been enough; then the history still opens
		// with the oldest user message.
		if !strings.Contains(first, `"role":"user"`) {
			t.Errorf("message after the system prompt: %s", first)
		}
	}
	if dialect == openai.Name && strings.Contains(first, "Summary of the earlier") && !strings.Contains(first, `"role":"system"`) {
		t.Errorf("Chat Completions summary must be a system message: %s", first)
	}
	if dialect == anthropic.Name && strings.Contains(first, "Summary of the earlier") && !strings.Contains(first, `"role":"user"`) {
		t.Errorf("Messages summary must be user text: %s", first)
	}
}
