package agent

import (
	"math"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestDeepSeekPeakHours(t *testing.T) {
	// 2025-01-06 is a Monday.
	at := func(day, hour, minute int) time.Time { return time.Date(2025, 1, day, hour, minute, 0, 0, time.UTC) }
	for _, c := range []struct {
		t    time.Time
		peak bool
	}{
		{at(6, 0, 59), false},
		{at(6, 1, 0), true},
		{at(6, 3, 59), true},
		{at(6, 4, 0), false},
		{at(6, 5, 30), false},
		{at(6, 6, 0), true},
		{at(10, 9, 59), true}, // Friday
		{at(10, 10, 0), false},
		{at(11, 2, 0), false}, // Saturday
		{at(12, 7, 0), false}, // Sunday
		{time.Date(2025, 1, 6, 9, 30, 0, 0, time.FixedZone("UTC+8", 8*3600)), true}, // 01:30 UTC
	} {
		if got := DeepSeekPeakHours(c.t); got != c.peak {
			t.Errorf("DeepSeekPeakHours(%v) = %v, want %v", c.t, got, c.peak)
		}
	}
}

func TestPriceCost(t *testing.T) {
	// DeepSeek's published figure: 1536 tokens cost $0.00023 as misses, $0.0000046 as hits.
	off := deepSeekFlashPricing.OffPeak
	if got := off.Cost(provider.Usage{PromptTokens: 1536}); math.Abs(got-0.0002304) > 1e-10 {
		t.Errorf("1536 misses = %v", got)
	}
	if got := off.Cost(provider.Usage{PromptTokens: 1536, CachedTokens: 1536}); math.Abs(got-0.000004608) > 1e-12 {
		t.Errorf("1536 hits = %v", got)
	}
	u := provider.Usage{PromptTokens: 1_000_000, CachedTokens: 400_000, CompletionTokens: 100_000}
	if got, want := off.Cost(u), 0.4*0.003+0.6*0.15+0.1*0.60; math.Abs(got-want) > 1e-12 {
		t.Errorf("off-peak cost = %v, want %v", got, want)
	}
	peak := deepSeekFlashPricing.At(time.Date(2025, 1, 6, 2, 0, 0, 0, time.UTC))
	if got, want := peak.Cost(u), 2*off.Cost(u); math.Abs(got-want) > 1e-12 {
		t.Errorf("peak cost = %v, want twice off-peak %v", got, want)
	}
	if p := PricingFor("unknown-model"); p != nil {
		t.Errorf("an unknown model is priced: %+v", *p)
	}
}

// TestRoundEndCarriesCostAndTotals: each round is priced at the moment it
// ends, and the running totals go on across prompts.
func TestRoundEndCarriesCostAndTotals(t *testing.T) {
	model := newFakeModel(
		answer(text("one"), provider.Event{Type: provider.EventDone, StopReason: provider.StopEndTurn,
			Usage: provider.Usage{PromptTokens: 1_000_000, CompletionTokens: 0}}),
		answer(text("two"), provider.Event{Type: provider.EventDone, StopReason: provider.StopEndTurn,
			Usage: provider.Usage{PromptTokens: 1_000_000, CachedTokens: 1_000_000}}),
	)
	clock := []time.Time{
		time.Date(2025, 1, 6, 2, 0, 0, 0, time.UTC),  // Monday peak
		time.Date(2025, 1, 11, 2, 0, 0, 0, time.UTC), // Saturday: off-peak
	}
	calls := 0
	now := func() time.Time {
		t := clock[min(calls, len(clock)-1)]
		calls++
		return t
	}
	s := NewSession(Config{Provider: model, Model: "deepseek-flash", Now: now}, sys)
	calls = 0 // NewSession read the clock for the creation time
	var ends []Event
	for _, p := range []string{"a", "b"} {
		rec := &recorder{}
		s.Prompt(t.Context(), p, rec)
		ends = append(ends, rec.ofKind(EventRoundEnd)...)
	}
	if len(ends) != 2 {
		t.Fatalf("round_end events = %+v", ends)
	}
	if math.Abs(ends[0].Cost-0.30) > 1e-9 || math.Abs(ends[1].Cost-0.003) > 1e-9 {
		t.Errorf("costs = %v, %v; want 0.30 (peak misses) and 0.003 (off-peak hits)", ends[0].Cost, ends[1].Cost)
	}
	tot := ends[1].Totals
	if tot.Calls != 2 || tot.Usage.PromptTokens != 2_000_000 || tot.Usage.CachedTokens != 1_000_000 || math.Abs(tot.Cost-0.303) > 1e-9 {
		t.Errorf("totals = %+v", tot)
	}
	if s.Totals() != tot {
		t.Errorf("Session.Totals = %+v, want %+v", s.Totals(), tot)
	}
}

func TestDefaultBudget(t *testing.T) {
	// 80% of the window, at most 64K tokens (docs/context-budget.md).
	for model, want := range map[string]int{
		"deepseek-flash":    64_000, // 1M window: the cap
		"deepseek-chat":     64_000, // 128K window: the cap
		"claude-sonnet-4-5": 64_000, // 200K window: the cap
		"something-new":     64_000, // unknown: the 128K guess, capped
	} {
		if got := DefaultBudget(model); got != want {
			t.Errorf("DefaultBudget(%q) = %d, want %d", model, got, want)
		}
	}
	// A small window keeps its margin: the share applies below 80K.
	for window, want := range map[int]int{4096: 3276, 32_000: 25_600, 80_000: 64_000, 1_000_000: 64_000} {
		if got := WindowBudget(window); got != want {
			t.Errorf("WindowBudget(%d) = %d, want %d", window, got, want)
		}
	}
	s := NewSession(Config{Model: "deepseek-flash"}, "")
	if s.cfg.Budget != 64_000 || s.cfg.Keep != DefaultKeep {
		t.Errorf("defaults: budget %d, keep %d", s.cfg.Budget, s.cfg.Keep)
	}
}
