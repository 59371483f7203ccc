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

// deepSeekFlashPricing is DeepSeek's published deepseek-flash price list; peak is
// twice off-peak, and a cache hit is 50 times cheaper than a miss.
var deepSeekFlashPricing = Pricing{
	OffPeak:   Price{CacheHit: 0.003, CacheMiss: 0.15, Output: 0.60},
	Peak:      Price{CacheHit: 0.006, CacheMiss: 0.30, Output: 1.20},
	PeakHours: DeepSeekPeakHours,
}

// freePricing is the price list of a model the user says costs nothing (a
// local server): its calls are priced, at $0.
var freePricing = Pricing{}

// prices is the price table by model name. A model not in it, and not
// priced by the user (Config.Pricing, ModelSettings.Pricing), has no
// price: its calls' cost is unknown, never guessed from another model's.
// Unexported: it is read through KnownPricing and PricingFor, so that no
// other package can change what every session charges.
var prices = map[string]Pricing{
	"deepseek-flash": deepSeekFlashPricing,
	// The providers' published list prices.
	"gpt-4.1":           {OffPeak: Price{CacheHit: 0.50, CacheMiss: 2.00, Output: 8.00}},
	"claude-sonnet-4-5": {OffPeak: Price{CacheHit: 0.30, CacheMiss: 3.00, Output: 15.00}},
}

// KnownPricing returns the model's entry of the price table, if any.
func KnownPricing(model string) (Pricing, bool) {
	p, ok := prices[model]
	return p, ok
}

// PricingFor returns the price list of model from the table, nil when the
// table does not know it (the cost of its calls is unknown).
func PricingFor(model string) *Pricing {
	if p, ok := KnownPricing(model); ok {
		return &p
	}
	return nil
}

// Totals are a session's running totals over every model call it made
// (prompt rounds and compaction summaries), across restarts.
type Totals struct {
	Usage provider.Usage
	Cost  float64 // USD, estimated from the prices of the priced calls
	Calls int     // model calls
	// Unpriced counts the calls made to a model without a price: while it
	// is not 0, Cost is only a part of what the session cost.
	Unpriced int
}

// CostKnown reports whether Cost is what every call of the session cost.
func (t Totals) CostKnown() bool { return t.Unpriced == 0 }

func (t Totals) add(u provider.Usage, cost float64, priced bool) Totals {
	t.Usage, t.Cost, t.Calls = t.Usage.Add(u), t.Cost+cost, t.Calls+1
	if !priced {
		t.Unpriced++
	}
	return t
}
