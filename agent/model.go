package agent

import (
	"errors"

	"github.com/agent-lsp/agent-lsp/provider"
)

// ModelSettings is the model a session talks to. SetModel replaces it
// between two model calls: the history is vendor-neutral, and each
// dialect's encoder drops what it cannot send (reasoning without a
// signature in the Messages dialect), so a session may change model or
// dialect at any point.
type ModelSettings struct {
	Provider  provider.Provider
	Model     string
	MaxTokens int // 0: the dialect's default
	Thinking  provider.Thinking
	// Pricing and ContextWindow, when set, replace what the tables say
	// of Model (a user's preset may know better).
	Pricing       *Pricing
	ContextWindow int
	// Record, when set, is the connection as plain non-secret data: it is
	// stored with the session (ModelRecordOf, ModelRecord.Settings), and
	// StoredModel gives it back after a resume. A switch without one is
	// stored as "the configured model".
	Record *ModelRecord
}

// modelState is the session's current model and what follows from it.
type modelState struct {
	ModelSettings
	budget int
	// window is the model's context window when known (a setting, the
	// tables, the server's answer, an overflow's count); 0: unknown. It
	// bounds the output a request asks for (outputRoom).
	window int
	// pricing is nil for a model without a price: its cost is unknown.
	pricing *Pricing
}

// SetModel switches the session to another model (or dialect, or
// endpoint); it takes effect at the next model call. The budget and the
// price table follow the new model unless the session's Config fixed them.
// The calibration of the estimate is dropped: the new model counts tokens
// with its own tokenizer. With a Store, a change of the stored model is
// written at once when no prompt runs, else with the running prompt's round.
func (s *Session) SetModel(m ModelSettings) error {
	if m.Provider == nil {
		return errors.New("set model: no provider")
	}
	if m.Model == "" {
		return errors.New("set model: no model name")
	}
	s.mu.Lock()
	st := modelState{ModelSettings: m, budget: s.cfg.Budget, pricing: s.cfg.Pricing}
	st.window = knownWindow(m.Model)
	if m.ContextWindow > 0 {
		st.window = m.ContextWindow
	}
	if !s.budgetFixed {
		st.budget = DefaultBudget(m.Model)
		if m.ContextWindow > 0 {
			st.budget = WindowBudget(m.ContextWindow)
		}
	}
	if !s.pricingFixed {
		st.pricing = PricingFor(m.Model)
		if m.Pricing != nil {
			p := *m.Pricing
			st.pricing = &p
		}
	}
	s.model = st
	s.calib.invalidate()
	rec := recordOf(m)
	changed := !sameRecord(s.storedModel, rec)
	s.storedModel = rec
	if changed && s.cfg.Store != nil {
		s.pending = append(s.pending, record{Type: recModel, Connection: rec})
	}
	s.mu.Unlock()
	if changed {
		s.commitIdle()
	}
	return nil
}

// Model returns the session's current model settings.
func (s *Session) Model() ModelSettings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model.ModelSettings
}

// current returns the model state for one call.
func (s *Session) current() modelState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}
