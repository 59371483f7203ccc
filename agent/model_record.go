package agent

import (
	"github.com/agent-lsp/agent-lsp/provider"
)

// ModelRecord is a session's model connection as plain data, stored with
// the session so that a front end can reconnect a resumed session to the
// model it was switched to. It holds nothing secret: APIKeyEnv is the NAME
// of the variable that holds the key, never the key. The agent does not
// connect to anything itself: a front end turns the record back into a
// provider (Config, then its client factory) and calls SetModel with
// Settings.
type ModelRecord struct {
	Provider  string `json:"provider"` // the dialect: "openai" or "anthropic"
	Model     string `json:"model"`
	BaseURL   string `json:"baseURL,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
	MaxTokens int    `json:"maxTokens,omitempty"`
	Thinking  bool   `json:"thinking,omitempty"`
	Effort    string `json:"effort,omitempty"`
	// ContextWindow and Price are a preset's own figures (zero: the
	// tables'); a price with peak hours cannot be stored and is left out.
	ContextWindow int   `json:"contextWindow,omitempty"`
	Price         Price `json:"price,omitzero"`
	// Free: the user says the server costs nothing (a local one); its
	// calls are priced at $0 instead of by the table or unknown.
	Free bool `json:"free,omitempty"`
}

// ModelRecordOf takes the non-secret connection settings of c; its
// IdleTimeout belongs to the front end that reconnects, not to the session.
func ModelRecordOf(c provider.Config) ModelRecord {
	return ModelRecord{Provider: c.Provider, Model: c.Model, BaseURL: c.BaseURL, APIKeyEnv: c.APIKeyEnv,
		MaxTokens: c.MaxTokens, Thinking: c.Thinking, Effort: c.Effort, Free: c.Free}
}

// Config is base (the front end's configuration, for what the record does
// not hold) with the record's connection settings.
func (r ModelRecord) Config(base provider.Config) provider.Config {
	base.Provider, base.Model, base.BaseURL, base.APIKeyEnv = r.Provider, r.Model, r.BaseURL, r.APIKeyEnv
	base.MaxTokens, base.Thinking, base.Effort, base.Free = r.MaxTokens, r.Thinking, r.Effort, r.Free
	return base
}

// Settings are the model settings of the record talking through p, the
// record attached so that SetModel stores it.
func (r ModelRecord) Settings(p provider.Provider) ModelSettings {
	m := ModelSettings{Provider: p, Model: r.Model, MaxTokens: r.MaxTokens,
		Thinking: provider.Thinking{Enabled: r.Thinking, Effort: r.Effort}, ContextWindow: r.ContextWindow, Record: &r}
	switch {
	case r.Free:
		free := freePricing
		m.Pricing = &free
	case r.Price != (Price{}):
		m.Pricing = &Pricing{OffPeak: r.Price}
	}
	return m
}

// recordOf is what SetModel stores of m: its record, with the model, the
// answer budget, thinking and the preset's figures taken from m itself so
// that the two never disagree. nil when m carries no record.
func recordOf(m ModelSettings) *ModelRecord {
	if m.Record == nil {
		return nil
	}
	r := *m.Record
	r.Model, r.MaxTokens, r.Thinking, r.Effort = m.Model, m.MaxTokens, m.Thinking.Enabled, m.Thinking.Effort
	r.ContextWindow, r.Price = m.ContextWindow, Price{}
	if m.Pricing != nil && m.Pricing.PeakHours == nil {
		r.Price = m.Pricing.OffPeak
	}
	return &r
}

// sameRecord reports whether a and b store the same model (both nil: the
// configured model).
func sameRecord(a, b *ModelRecord) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// StoredModel returns the model the session was last switched to with a
// record, as stored (for a resumed session: as read from its file). false:
// the session talks to the model its front end configured.
func (s *Session) StoredModel() (ModelRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.storedModel == nil {
		return ModelRecord{}, false
	}
	return *s.storedModel, true
}

// commitIdle writes the queued records now when no prompt or compaction
// runs and the session's file exists, so that a choice made between
// prompts (a model switch) survives a restart that comes before the next
// round. While a prompt runs, the records go with its round.
func (s *Session) commitIdle() {
	select {
	case s.busy <- struct{}{}:
	default:
		return
	}
	defer func() { <-s.busy }()
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if started {
		s.commit()
	}
}
