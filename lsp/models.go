package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// modelPreset is a connection the user can switch a session to, with what
// is known of the model: its context window and prices (USD per million
// tokens), from initializationOptions.models or the tables.
type modelPreset struct {
	provider.Preset
	ContextWindow int           `json:"contextWindow,omitempty"`
	Prices        *presetPrices `json:"prices,omitempty"`
	Source        string        `json:"source,omitempty"` // "options" or "default"
}

type presetPrices struct {
	Input       float64       `json:"input"`       // prompt tokens read fresh
	CachedInput float64       `json:"cachedInput"` // prompt tokens read from the cache
	Output      float64       `json:"output"`
	Peak        *presetPrices `json:"peak,omitempty"` // the price in peak hours, when there are any
}

func pricesOf(p agent.Pricing) *presetPrices {
	out := &presetPrices{Input: p.OffPeak.CacheMiss, CachedInput: p.OffPeak.CacheHit, Output: p.OffPeak.Output}
	if p.PeakHours != nil {
		out.Peak = &presetPrices{Input: p.Peak.CacheMiss, CachedInput: p.Peak.CacheHit, Output: p.Peak.Output}
	}
	return out
}

func (p presetPrices) pricing() *agent.Pricing {
	return &agent.Pricing{OffPeak: agent.Price{CacheHit: p.CachedInput, CacheMiss: p.Input, Output: p.Output}}
}

// presets are the options' presets, then the defaults whose id they do not
// take, each completed with the tables' context window and prices.
func (c *control) allPresets() []modelPreset {
	c.mu.Lock()
	out := append([]modelPreset(nil), c.presets...)
	c.mu.Unlock()
	taken := map[string]bool{}
	for i := range out {
		out[i].Source = "options"
		taken[strings.ToLower(out[i].ID)] = true
	}
	for _, p := range provider.DefaultPresets() {
		if !taken[strings.ToLower(p.ID)] {
			out = append(out, modelPreset{Preset: p, Source: "default"})
		}
	}
	for i := range out {
		if out[i].ContextWindow == 0 {
			out[i].ContextWindow, _ = agent.KnownContextWindow(out[i].Model)
		}
		if out[i].Prices == nil {
			if p, ok := agent.KnownPricing(out[i].Model); ok {
				out[i].Prices = pricesOf(p)
			}
		}
	}
	return out
}

func (c *control) preset(id string) (modelPreset, bool) {
	for _, p := range c.allPresets() {
		if strings.EqualFold(p.ID, strings.TrimSpace(id)) {
			return p, true
		}
	}
	return modelPreset{}, false
}

type modelsParams struct {
	SessionID string `json:"sessionId"`
}

type currentModel struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseURL"`
}

type modelsResult struct {
	Models  []modelPreset `json:"models"`
	Current *currentModel `json:"current,omitempty"`
}

// listModels serves agent/models: the presets, and the session's current
// model when a session is named (else the daemon's).
func (s *server) listModels(_ context.Context, r *request) (any, error) {
	var p modelsParams
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	res := modelsResult{Models: s.control.allPresets()}
	var cfg provider.Config
	if p.SessionID != "" {
		sess, err := s.sessions.lookup(p.SessionID)
		if err != nil {
			return nil, err
		}
		cfg = s.modelOf(sess)
	} else {
		s.mu.Lock()
		cfg = s.settings.model
		s.mu.Unlock()
	}
	res.Current = &currentModel{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL}
	return res, nil
}

type setModelParams struct {
	SessionID string  `json:"sessionId"`
	Preset    string  `json:"preset"`
	Provider  *string `json:"provider"`
	Model     string  `json:"model"`
	BaseURL   *string `json:"baseURL"`
	APIKeyEnv *string `json:"apiKeyEnv"`
}

// setModel serves agent/setModel.
func (s *server) setModel(_ context.Context, r *request) (any, error) {
	var p setModelParams
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: sessionId is required")
	}
	sess, err := s.sessions.lookup(p.SessionID)
	if err != nil {
		return nil, err
	}
	cur, err := s.switchModel(sess, p)
	if err != nil {
		return nil, err
	}
	return cur, nil
}

// switchModel resolves the new model of a session, builds its client and
// hands it to the session: it takes effect at the session's next model
// call. A preset gives dialect, endpoint, model and key variable; without
// one, provider switches the dialect (endpoint and model left at the old
// dialect's defaults take the new one's), then baseURL, model and apiKeyEnv
// apply. The answer budget and thinking settings stay.
func (s *server) switchModel(sess *session, p setModelParams) (*currentModel, error) {
	cfg := s.modelOf(sess)
	var preset *modelPreset
	switch {
	case p.Preset != "":
		ps, ok := s.control.preset(p.Preset)
		if !ok {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: unknown model preset %q (agent/models lists them)", p.Preset)
		}
		preset, cfg = &ps, ps.Apply(cfg)
		if p.Model != "" {
			cfg.Model = p.Model
		}
	case strings.TrimSpace(p.Model) == "":
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: model (or preset) is required")
	default:
		if p.Provider != nil {
			cfg = cfg.WithProvider(strings.ToLower(strings.TrimSpace(*p.Provider)))
		}
		cfg.Model = strings.TrimSpace(p.Model)
	}
	if p.BaseURL != nil {
		cfg.BaseURL = *p.BaseURL
	}
	if p.APIKeyEnv != nil {
		cfg.APIKeyEnv = *p.APIKeyEnv
	}
	if err := cfg.Validate(); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	client, err := s.newModel(cfg)
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "cannot switch the model: %v", err)
	}
	// The record stores the switch with the session (never the key, only
	// the name of its variable): restoreModel reconnects it after a restart.
	m := agent.ModelRecordOf(cfg).Settings(client)
	if preset != nil && preset.Source == "options" {
		m.ContextWindow = preset.ContextWindow
		if preset.Prices != nil {
			m.Pricing = preset.Prices.pricing()
		}
	}
	if err := sess.agent.SetModel(m); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	s.control.setSessionModel(sess.id, cfg)
	s.sendControlUpdate(sess, "model", &modelUpdate{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL})
	return &currentModel{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL}, nil
}

// restoreModel reconnects a resumed session to the model it was switched
// to, as stored with it. When that fails (the key's variable is not set in
// this daemon's environment, the stored settings are no longer valid), the
// session talks to the configured model, and the user is told by a model
// update that carries the reason; the stored choice stays, for a later
// daemon that can reach it.
func (s *server) restoreModel(sess *session) {
	rec, ok := sess.agent.StoredModel()
	if !ok {
		return
	}
	s.mu.Lock()
	base := s.settings.model
	s.mu.Unlock()
	cfg := rec.Config(base)
	client, err := s.newModel(cfg)
	if err == nil {
		err = sess.agent.SetModel(rec.Settings(client))
	}
	if err == nil {
		s.control.setSessionModel(sess.id, cfg)
		s.log.Info("session model restored", zap.String("session", sess.id),
			zap.String("provider", cfg.Provider), zap.String("model", cfg.Model))
		return
	}
	s.log.Warn("session model cannot be restored: the configured model is used", zap.String("session", sess.id),
		zap.String("provider", cfg.Provider), zap.String("model", cfg.Model), zap.Error(err))
	msg := fmt.Sprintf("the session's model %s (%s, %s) cannot be used now: %v; the session talks to the configured model %s until it is switched again",
		cfg.Model, cfg.Provider, cfg.BaseURL, err, base.Model)
	s.sendControlUpdate(sess, "model", &modelUpdate{Provider: base.Provider, Model: base.Model, BaseURL: base.BaseURL, Message: msg})
}

// describeModels is the text of a bare /model: the current model and the presets.
func (s *server) describeModels(sess *session) string {
	cfg := s.modelOf(sess)
	var b strings.Builder
	fmt.Fprintf(&b, "Model: %s (%s, %s). Presets (/model <id>):", cfg.Model, cfg.Provider, cfg.BaseURL)
	for _, p := range s.control.allPresets() {
		fmt.Fprintf(&b, "\n  %s: %s via %s", p.ID, p.Model, p.Provider)
	}
	return b.String()
}
