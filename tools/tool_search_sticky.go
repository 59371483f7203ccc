package tools

import "sync"

// Whether a session's requests defer the deferrable tools behind
// tool_search is its own, kept from request to request with hysteresis:
// an estimate near the threshold (an MCP server that adds a tool, a mode
// that offers fewer) would otherwise flip successive requests between the
// whole list and tool_search, and each flip changes the request's first
// part (the tool list), so the provider's prompt cache holds nothing of
// it. A session starts deferring past the threshold (more than
// DeferToolCount tools, or more than DeferSchemaBytes); once it defers, it
// stops only when the deferrable tools fall clearly below it: at most
// StopDeferringShare of both limits.

// StopDeferringShare is the share of both limits at or below which a
// session that defers sends the whole list again.
const StopDeferringShare = 0.8

// ToolDeferral is one session's decision (the zero value has made none
// yet). Safe for concurrent use.
type ToolDeferral struct {
	mu        sync.Mutex
	decided   bool
	deferring bool
}

// decide is the decision for the request about to be built from ts (the
// tools the session's mode offers), given the tools tool_search found in
// the session so far.
func (d *ToolDeferral) decide(ts []Tool, found []string) bool {
	n, size := deferrableSize(ts)
	over := n > DeferToolCount || size > DeferSchemaBytes
	clearlyUnder := float64(n) <= StopDeferringShare*DeferToolCount && float64(size) <= StopDeferringShare*DeferSchemaBytes
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case !d.decided:
		// A session resumed with tools it found was deferring: between
		// the two lines it goes on as it did.
		d.deferring = over || (len(found) > 0 && !clearlyUnder)
		d.decided = true
	case d.deferring:
		d.deferring = !clearlyUnder
	default:
		d.deferring = over
	}
	return d.deferring
}

// OfferIn is Offer for a session's request, the decision kept in d: past
// the threshold once, the session defers until its deferrable tools fall
// to StopDeferringShare of it.
func (r *Registry) OfferIn(d *ToolDeferral, ts []Tool, found []string) []Tool {
	return r.offer(ts, found, d.decide(ts, found))
}
