package toolsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The 40-round compacting session of agent's
// TestLongSessionCompactsAndKeepsCacheablePrefix: 20 prompts about the demo
// Java project, each a read_file round (with reasoning) and an answer, with
// --budget 4000 --keep 4, so that it compacts and calls for summaries.

var javaFiles = []string{
	"src/main/java/demo/Calculator.java",
	"src/main/java/demo/Main.java",
	"src/test/java/demo/CalculatorTest.java",
}

func roundsScript(prompts int) providertest.Script {
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

func summariesScript(n int) providertest.Script {
	s := make(providertest.Script, n)
	for i := range s {
		s[i] = providertest.Turn{Text: fmt.Sprintf("Summary %d: the user asked about the demo project's Java files one at a time; each was read and found fine.", i+1)}
	}
	return s
}

// sessionResult is one dialect's run of the compacting session.
type sessionResult struct {
	rounds, summaries, compactions int
	prompt, cached                 int
}

func (r sessionResult) share() float64 { return float64(r.cached) / float64(max(r.prompt, 1)) }

// runCompactingSession runs the session against two strict fakes (rounds,
// and the summary calls, whose moment cannot be scripted) that share one
// simulated prefix cache; the counts are the session's own totals.
func runCompactingSession(t *testing.T, dialect string, prompts int) sessionResult {
	t.Helper()
	cache := providertest.NewPrefixCache()
	rounds := providertest.NewServer(t, roundsScript(prompts), providertest.WithSeed(40), providertest.WithPrefixCache(cache))
	summaries := providertest.NewServer(t, summariesScript(prompts), providertest.WithSeed(41), providertest.WithPrefixCache(cache))
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
			rounds.ServeHTTP(w, r)
		} else {
			summaries.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(router.Close)

	root := javaProject(t)
	ws, err := tools.NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := tools.RegisterBuiltins(reg); err != nil {
		t.Fatal(err)
	}
	cfg := agent.Config{
		Provider: httpProvider(t, dialect, router.URL, router.URL+"/anthropic"), Model: "deepseek-flash", MaxTokens: 4096,
		Thinking: provider.Thinking{Enabled: true}, Tools: reg,
		Env:  &tools.Env{Workspace: ws, Docs: &tools.DiskDocuments{Workspace: ws}},
		Gate: permission.NewPolicy(permission.AutoApprover{}), Budget: 4000, Keep: 4,
	}
	s := agent.NewSession(cfg, agent.SystemPrompt(ws, "linux", "/bin/bash"))
	var res sessionResult
	l := agent.ListenerFunc(func(e agent.Event) {
		if e.Kind == agent.EventCompacted {
			res.compactions++
		}
	})
	for i := range prompts {
		o := s.Prompt(t.Context(), fmt.Sprintf("Question %d: what is in %s?", i+1, javaFiles[i%len(javaFiles)]), l)
		if o.StopReason != agent.StopEndTurn {
			t.Fatalf("%s: prompt %d: %+v", dialect, i+1, o)
		}
	}
	for _, rq := range append(rounds.Requests(), summaries.Requests()...) {
		if rq.Rejected != "" {
			t.Fatalf("%s: request refused: %s", dialect, rq.Rejected)
		}
	}
	tot := s.Totals()
	res.rounds, res.summaries = len(rounds.Requests()), len(summaries.Requests())
	res.prompt, res.cached = tot.Usage.PromptTokens, tot.Usage.CachedTokens
	return res
}

func httpProvider(t *testing.T, dialect, openaiURL, anthropicURL string) provider.Provider {
	t.Helper()
	opts := provider.HTTPOptions{APIKey: "bench", Dialect: openai.NewDialect(), BaseURL: openaiURL}
	if dialect == anthropic.Name {
		opts.Dialect, opts.BaseURL = anthropic.NewDialect(), anthropicURL
	}
	p, err := provider.NewHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// javaProject is a copy of testdata/java-project.
func javaProject(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "java-project")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
