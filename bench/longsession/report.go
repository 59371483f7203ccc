package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// flatGoal is the acceptance line: the per-round overhead at round 200 is
// at most this many times the one at round 10.
const flatGoal = 2.0

// window is the rounds (1-based, inclusive) a "round N" figure is the
// mean of (each round itself the least over the runs): the mean keeps the
// garbage collector's share, which comes in bursts.
type window struct{ from, to int }

func (w window) String() string { return fmt.Sprintf("rounds %d–%d", w.from, w.to) }

// mean of the per-round values in w (index r-1 is round r).
func (w window) mean(v []time.Duration) time.Duration {
	lo, hi := max(w.from, 1)-1, min(w.to, len(v))
	if lo >= hi {
		return 0
	}
	var t time.Duration
	for _, d := range v[lo:hi] {
		t += d
	}
	return t / time.Duration(hi-lo)
}

// overheads is the agent's wall-clock time per round seen from the fake:
// for round r, from the answer to round r's request being flushed to round
// r+1's request being read, minus the fake's own answer time for any
// summary call in between.
func overheads(recs []record) []time.Duration {
	var out []time.Duration
	var acc time.Duration
	started := false
	for i, r := range recs {
		if i > 0 {
			acc += time.Duration(r.Arrived - recs[i-1].Done)
		}
		if r.Summary {
			continue
		}
		if started {
			out = append(out, acc)
		}
		started, acc = true, 0
	}
	return out
}

// Prices for the modelled cost, USD per million tokens, from agent's price
// table. DeepSeek's are deepseek-flash's published off-peak ones;
// Anthropic's are Claude Sonnet 4.5's list price with its cache terms: a
// cache read is 0.1x the input price and writing the cache 1.25x, and every
// uncached prompt token is assumed written to the cache (the next round
// reads it).
var (
	deepseek      = listPrice("deepseek-flash")
	anthropicIn   = listPrice("claude-sonnet-4-5").CacheMiss
	anthropicRead = anthropicIn * 0.1
	anthropicOut  = listPrice("claude-sonnet-4-5").Output
)

// listPrice is the off-peak price of a model the table must know: the
// report's model would be silently free otherwise.
func listPrice(model string) agent.Price {
	p, ok := agent.KnownPricing(model)
	if !ok {
		panic("bench/longsession: agent has no price for " + model)
	}
	return p.OffPeak
}

func anthropicCost(r record) float64 {
	miss := r.PromptTokens - r.CachedTokens
	return (float64(r.CachedTokens)*anthropicRead + float64(miss)*anthropicIn*1.25 + float64(r.Completion)*anthropicOut) / 1e6
}

func deepseekCost(r record) float64 {
	return deepseek.Cost(provider.Usage{PromptTokens: r.PromptTokens, CachedTokens: r.CachedTokens, CompletionTokens: r.Completion})
}

func report(w io.Writer, results []result, rounds, n int) {
	early, late := window{5, 14}, window{rounds - 9, rounds}
	fmt.Fprintf(w, "long session: %d rounds of read_file, model %s (%s-token window), keep %d\n",
		rounds, model, tokens(agent.ContextWindow(model)), agent.DefaultKeep)
	if len(results) > 0 && results[0].resultBytes > 0 {
		fmt.Fprintf(w, "tool result: %.1f KB on average\n", float64(results[0].resultBytes)/float64(rounds)/1024)
	}
	fmt.Fprintf(w, "%-44s", "")
	for _, r := range results {
		fmt.Fprintf(w, " %18s", r.label)
	}
	fmt.Fprintln(w)
	row := func(label string, cell func(r result) string) {
		fmt.Fprintf(w, "%-44s", label)
		for _, r := range results {
			fmt.Fprintf(w, " %18s", cell(r))
		}
		fmt.Fprintln(w)
	}
	flat := func(v []time.Duration) string {
		a, b := early.mean(v), late.mean(v)
		ratio := float64(b) / float64(max(a, 1))
		verdict := "pass"
		if ratio > flatGoal {
			verdict = "FAIL"
		}
		return fmt.Sprintf("%.2fx %s", ratio, verdict)
	}
	row("agent CPU per round, "+early.String(), func(r result) string { return ms(early.mean(r.cpu)) })
	row("agent CPU per round, "+late.String(), func(r result) string { return ms(late.mean(r.cpu)) })
	row(fmt.Sprintf("  ratio (goal ≤ %.0fx)", flatGoal), func(r result) string { return flat(r.cpu) })
	row("agent wall overhead per round, "+early.String(), func(r result) string { return ms(early.mean(r.wall)) })
	row("agent wall overhead per round, "+late.String(), func(r result) string { return ms(late.mean(r.wall)) })
	row(fmt.Sprintf("  ratio (goal ≤ %.0fx)", flatGoal), func(r result) string { return flat(r.wall) })
	row("agent CPU, whole session", func(r result) string {
		var t time.Duration
		for _, c := range r.cpu {
			t += c
		}
		return ms(t)
	})
	row("requests (summary calls)", func(r result) string {
		n := 0
		for _, rec := range r.records {
			if rec.Summary {
				n++
			}
		}
		return fmt.Sprintf("%d (%d)", len(r.records), n)
	})
	row("compactions", func(r result) string { return fmt.Sprint(r.compactions) })
	row("largest request", func(r result) string {
		m := 0
		for _, rec := range r.records {
			m = max(m, rec.Bytes)
		}
		return mb(m)
	})
	row("uploaded to the model, total", func(r result) string {
		t := 0
		for _, rec := range r.records {
			t += rec.Bytes
		}
		return mb(t)
	})
	row("prompt tokens, total (cached share)", func(r result) string {
		p, c := 0, 0
		for _, rec := range r.records {
			p, c = p+rec.PromptTokens, c+rec.CachedTokens
		}
		return fmt.Sprintf("%s (%.0f%%)", mtok(p), 100*float64(c)/float64(max(p, 1)))
	})
	row(fmt.Sprintf("cost at DeepSeek's prices (hit $%g, miss $%g)", deepseek.CacheHit, deepseek.CacheMiss), func(r result) string {
		return usd(r.records, deepseekCost)
	})
	row(fmt.Sprintf("cost at Anthropic's (read $%.2f, write $%.2f)", anthropicRead, anthropicIn*1.25), func(r result) string {
		return usd(r.records, anthropicCost)
	})
	fmt.Fprintf(w, "Per round: the least of %d sessions, averaged over the rounds named. CPU: getrusage of the agent's process\n", n)
	fmt.Fprintln(w, "between two round ends (the fake model is another process). Wall overhead: the fake's answer flushed → the")
	fmt.Fprintln(w, "next request read, a summary call's answer time excluded.")
	fmt.Fprintln(w, "Cost: the fake's token counts (bytes/4) with a simulated prefix cache (128-token units, the last 4 prompts), off-peak, per session.")
}

func usd(recs []record, cost func(record) float64) string {
	t := 0.0
	for _, r := range recs {
		t += cost(r)
	}
	return fmt.Sprintf("$%.4f", t)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/1e6) }

func mb(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.0f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}

func mtok(n int) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%.2fM", float64(n)/1e6)
	}
	return strings.TrimSuffix(fmt.Sprintf("%.0fK", float64(n)/1e3), ".0")
}
