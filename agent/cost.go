package agent

import (
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

// Price is what a model charges, in USD per million tokens.
type Price struct {
	CacheHit  float64 // prompt tokens read from the provider's cache
	CacheMiss float64 // prompt tokens read fresh
	Output    float64 // completion tokens
}

// Cost is the price of one model call's usage in USD.
func (p Price) Cost(u provider.Usage) float64 {
	hit := min(u.CachedTokens, u.PromptTokens)
	miss := u.PromptTokens - hit
	return (float64(hit)*p.CacheHit + float64(miss)*p.CacheMiss + float64(u.CompletionTokens)*p.Output) / 1e6
}

// Pricing is a model's price list: an off-peak price and, for providers
// with time-of-day pricing, a peak price and the hours it applies.
type Pricing struct {
	OffPeak Price
	Peak    Price
	// PeakHours reports whether the peak price is in force at t; nil means
	// the off-peak price always applies.
	PeakHours func(t time.Time) bool
}

// At returns the price in force at t. A call is priced at the moment its
// round ends: a call that straddles the change of tariff is rare and off by
// at most the difference for one call.
func (p Pricing) At(t time.Time) Price {
	if p.PeakHours != nil && p.PeakHours(t) {
		return p.Peak
	}
	return p.OffPeak
}

// DeepSeekPeakHours is DeepSeek's peak window: Monday to Friday, 01:00–04:00
// and 06:00–10:00 UTC. Everything else, weekends included, is off-peak.
func DeepSeekPeakHours(t time.Time) bool {
	t = t.UTC()
	if wd := t.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	h := t.Hour()
	return h >= 1 && h < 4 || h >= 6 && h < 10
}

// DeepSeekFlashPricing is the seeds' deepseek-flash price list; peak is
// twice off-peak, and a cache hit is 50 times cheaper than a miss.
var DeepSeekFlashPricing = Pricing{
	OffPeak:   Price{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.60},
	Peak:      Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20},
	PeakHours: DeepSeekPeakHours,
}

// Prices is the price table by model name. Models not in it are priced as
// deepseek-flash, the default entry (the project's default model); a front
// end that knows better sets Config.Pricing.
var Prices = map[string]Pricing{
	"deepseek-flash": DeepSeekFlashPricing,
	// The providers' published list prices.
	"gpt-4.1":           {OffPeak: Price{CacheHit: 0.50, CacheMiss: 2.00, Output: 8.00}},
	"claude-sonnet-4-5": {OffPeak: Price{CacheHit: 0.30, CacheMiss: 3.00, Output: 15.00}},
}

// PricingFor returns the table's entry for model, or the default entry.
func PricingFor(model string) Pricing {
	if p, ok := Prices[model]; ok {
		return p
	}
	return DeepSeekFlashPricing
}

// Totals are a session's running totals over every model call it made
// (prompt rounds and compaction summaries), across restarts.
type Totals struct {
	Usage provider.Usage
	Cost  float64 // USD, estimated from the price table
	Calls int     // model calls
}

func (t Totals) add(u provider.Usage, cost float64) Totals {
	return Totals{Usage: t.Usage.Add(u), Cost: t.Cost + cost, Calls: t.Calls + 1}
}
