package agent_test

import (
	"fmt"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// minCachedShare is issue 29's line for the 40-round compacting session:
// the share of all its input tokens (summary calls included) a prefix cache
// holds.
const minCachedShare = 0.85

// TestLongSessionCachedShare runs the 40-round compacting session of
// TestLongSessionCompactsAndKeepsCacheablePrefix (--budget 4000 --keep 4)
// against fakes that share one simulated prefix cache, and reads the cached
// share from the session's own totals (the usage the fake reported).
func TestLongSessionCachedShare(t *testing.T) {
	const prompts = 20
	for _, d := range []string{openai.Name, anthropic.Name} {
		t.Run(d, func(t *testing.T) {
			share, summaries := cachedShareOfLongSession(t, d, prompts)
			t.Logf("%s: %d rounds, %d summary calls: cached share %.3f", d, 2*prompts, summaries, share)
			if share < minCachedShare {
				t.Errorf("cached share %.3f, want ≥ %.2f", share, minCachedShare)
			}
		})
	}
}

// cachedShareOfLongSession runs prompts two-round prompts with budget 4000
// and keep 4 and returns the cached share of the session's input tokens.
func cachedShareOfLongSession(t *testing.T, dialect string, prompts int) (float64, int) {
	t.Helper()
	cache := providertest.NewPrefixCache()
	fakes := newFakeModels(t, longSessionScript(prompts), summaryScript(prompts))
	fakes.rounds = providertest.NewServer(t, longSessionScript(prompts), providertest.WithSeed(40), providertest.WithPrefixCache(cache))
	fakes.summaries = providertest.NewServer(t, summaryScript(prompts), providertest.WithSeed(41), providertest.WithPrefixCache(cache))
	cfg, sys := builtinConfig(t, fakes.provider(t, dialect), javaProject(t))
	cfg.Budget, cfg.Keep = 4000, 4
	s := agent.NewSession(cfg, sys)
	for i := range prompts {
		o := s.Prompt(t.Context(), fmt.Sprintf("Question %d: what is in %s?", i+1, javaFiles[i%len(javaFiles)]), nil)
		if o.StopReason != agent.StopEndTurn {
			t.Fatalf("prompt %d: %+v", i+1, o)
		}
	}
	for _, rq := range append(fakes.rounds.Requests(), fakes.summaries.Requests()...) {
		if rq.Rejected != "" {
			t.Fatalf("request refused: %s", rq.Rejected)
		}
	}
	if len(fakes.summaries.Requests()) == 0 {
		t.Fatalf("no summary call: the session must compact")
	}
	tot := s.Totals()
	return float64(tot.Usage.CachedTokens) / float64(tot.Usage.PromptTokens), len(fakes.summaries.Requests())
}
