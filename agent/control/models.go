package control

import (
	"fmt"
	"strings"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider"
)

// Preset is a connection the user can switch a session to, with what is
// known of the model: its context window and prices (USD per million
// tokens), from the user's configuration or the tables.
type Preset struct {
	provider.Preset
	ContextWindow int     `json:"contextWindow,omitempty"`
	Prices        *Prices `json:"prices,omitempty"`
	Source        string  `json:"source,omitempty"` // "options" (the user's) or "default"
}

// Prices are a model's prices in USD per million tokens.
type Prices struct {
	Input       float64 `json:"input"`       // prompt tokens read fresh
	CachedInput float64 `json:"cachedInput"` // prompt tokens read from the cache
	Output      float64 `json:"output"`
	Peak        *Prices `json:"peak,omitempty"` // the price in peak hours, when there are any
}

func pricesOf(p agent.Pricing) *Prices {
	out := &Prices{Input: p.OffPeak.CacheMiss, CachedInput: p.OffPeak.CacheHit, Output: p.OffPeak.Output}
	if p.PeakHours != nil {
		out.Peak = &Prices{Input: p.Peak.CacheMiss, CachedInput: p.Peak.CacheHit, Output: p.Peak.Output}
	}
	return out
}

func (p Prices) pricing() *agent.Pricing {
	return &agent.Pricing{OffPeak: agent.Price{CacheHit: p.CachedInput, CacheMiss: p.Input, Output: p.Output}}
}

// AllPresets are the user's presets, then the defaults whose id they do
// not take, each completed with the tables' context window and prices (a
// free preset's are 0). A preset whose model the table does not price
// has none: its cost is unknown.
func AllPresets(user []Preset) []Preset {
	out := append([]Preset(nil), user...)
	taken := map[string]bool{}
	for i := range out {
		out[i].Source = "options"
		taken[strings.ToLower(out[i].ID)] = true
	}
	for _, p := range provider.DefaultPresets() {
		if !taken[strings.ToLower(p.ID)] {
			out = append(out, Preset{Preset: p, Source: "default"})
		}
	}
	for i := range out {
		if out[i].ContextWindow == 0 {
			out[i].ContextWindow, _ = agent.KnownContextWindow(out[i].Model)
		}
		if out[i].Prices == nil && out[i].Free {
			out[i].Prices = &Prices{}
		}
		if out[i].Prices == nil {
			if p, ok := agent.KnownPricing(out[i].Model); ok {
				out[i].Prices = pricesOf(p)
			}
		}
	}
	return out
}

func (c *Controller) preset(id string) (Preset, bool) {
	for _, p := range c.Presets() {
		if strings.EqualFold(p.ID, strings.TrimSpace(id)) {
			return p, true
		}
	}
	return Preset{}, false
}

// ModelInfo names the model a session talks to, and the preset it is
// (Preset: its id, "" when it is none, e.g. a model set by flags), so that
// no front end has to match the presets itself.
type ModelInfo struct{ Provider, Model, BaseURL, Preset string }

func infoOf(cfg provider.Config) ModelInfo {
	return ModelInfo{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL}
}

// ModelChoice is a model switch: a preset, or a model (of the current
// dialect, or of Provider's), with optional endpoint and key variable.
type ModelChoice struct {
	// Configured goes back to the model the front end started with (its
	// flags and settings), as it was configured; the other fields are
	// ignored.
	Configured bool
	Preset     string
	Provider   *string
	Model      string
	BaseURL    *string
	APIKeyEnv  *string
}

// Configured is the model the front end started with: a session can
// always go back to it (ModelChoice.Configured).
func (c *Controller) Configured() ModelInfo { return c.withPreset(infoOf(c.o.Model)) }

// Model is the model the session talks to.
func (s *Session) Model() ModelInfo { return s.c.withPreset(infoOf(s.modelConfig())) }

// withPreset names the preset m is: the first whose dialect, model and
// endpoint are m's.
func (c *Controller) withPreset(m ModelInfo) ModelInfo {
	for _, p := range c.Presets() {
		if strings.EqualFold(p.Provider, m.Provider) && p.Model == m.Model && strings.TrimRight(p.BaseURL, "/") == strings.TrimRight(m.BaseURL, "/") {
			m.Preset = p.ID
			break
		}
	}
	return m
}

func (s *Session) modelConfig() provider.Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.model
}

// ModelErr is why the session's prompts cannot reach a model: the
// configured model's error, unless the session was switched to a working
// one; nil when it can.
func (s *Session) ModelErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.switched {
		return nil
	}
	return s.c.o.ModelErr
}

func (s *Session) setModelConfig(cfg provider.Config) {
	s.mu.Lock()
	s.model, s.switched = cfg, true
	s.mu.Unlock()
}

// connect builds a client for cfg, keeping its close function for Close.
func (c *Controller) connect(cfg provider.Config) (provider.Provider, error) {
	if c.o.Connect == nil {
		return nil, fmt.Errorf("no model client: models cannot be switched here")
	}
	p, closer, err := c.o.Connect(cfg)
	if err != nil {
		return nil, err
	}
	if closer != nil {
		c.mu.Lock()
		c.closers = append(c.closers, closer)
		c.mu.Unlock()
	}
	return p, nil
}

// SetModel resolves the session's new model, builds its client and hands
// it to the session: it takes effect at the next model call. A preset
// gives dialect, endpoint, model and key variable; without one, Provider
// switches the dialect (endpoint and model left at the old dialect's
// defaults take the new one's), then BaseURL, Model and APIKeyEnv apply.
// The answer budget and thinking settings stay. A model update is sent.
//
// Free (the user's word that the server costs nothing) comes with a
// preset, or stays from the current model while the endpoint does.
func (s *Session) SetModel(ch ModelChoice) (ModelInfo, error) {
	cfg := s.modelConfig()
	freeURL := cfg.BaseURL // the endpoint cfg.Free speaks of
	var preset *Preset
	switch {
	case ch.Configured:
		cfg, freeURL = s.c.o.Model, s.c.o.Model.BaseURL
	case ch.Preset != "":
		ps, ok := s.c.preset(ch.Preset)
		if !ok {
			return ModelInfo{}, invalidf("unknown model preset %q (the model list names them)", ch.Preset)
		}
		preset, cfg = &ps, ps.Apply(cfg)
		freeURL = cfg.BaseURL
		if ch.Model != "" {
			cfg.Model = ch.Model
		}
	case strings.TrimSpace(ch.Model) == "":
		return ModelInfo{}, invalidf("model (or preset) is required")
	default:
		if ch.Provider != nil {
			cfg = cfg.WithProvider(strings.ToLower(strings.TrimSpace(*ch.Provider)))
		}
		cfg.Model = strings.TrimSpace(ch.Model)
	}
	if ch.BaseURL != nil && !ch.Configured {
		cfg.BaseURL = *ch.BaseURL
	}
	if ch.APIKeyEnv != nil && !ch.Configured {
		cfg.APIKeyEnv = *ch.APIKeyEnv
	}
	if cfg.BaseURL != freeURL {
		cfg.Free = false
	}
	if old := s.modelConfig(); !ch.Configured && (cfg.Model != old.Model || cfg.BaseURL != old.BaseURL) {
		cfg.ContextWindow = 0 // the setting is the configured model's
	}
	if err := cfg.Validate(); err != nil {
		return ModelInfo{}, invalidf("%v", err)
	}
	client, err := s.c.connect(cfg)
	if err != nil {
		return ModelInfo{}, fmt.Errorf("cannot switch the model: %w", err)
	}
	// The record stores the switch with the session (never the key, only
	// the name of its variable): restoreModel reconnects it after a restart.
	m := agent.ModelRecordOf(cfg).Settings(client)
	if preset != nil && preset.Source == "options" {
		m.ContextWindow = preset.ContextWindow
		if preset.Prices != nil && !cfg.Free {
			m.Pricing = preset.Prices.pricing()
		}
	}
	if err := s.agent.SetModel(m); err != nil {
		return ModelInfo{}, invalidf("%v", err)
	}
	s.setModelConfig(cfg)
	s.learnWindow(cfg, m.ContextWindow)
	info := s.c.withPreset(infoOf(cfg))
	s.notify(Update{Kind: UpdateModel, Model: info})
	return info, nil
}

// restoreModel reconnects a resumed session to the model it was switched
// to, as stored with it. When that fails (the key's variable is not set
// here, the stored settings are no longer valid), the session talks to
// the configured model, and a model update carries the reason; the stored
// choice stays, for a later run that can reach it.
func (s *Session) restoreModel() {
	rec, ok := s.agent.StoredModel()
	if !ok {
		return
	}
	base := s.c.o.Model
	cfg := rec.Config(base)
	if by := s.userChoiceDiffers(cfg, base); by != "" {
		// The user's flags and environment win over what the session stored.
		s.c.log.Info("session model not restored: the run's model is the user's choice", zap.String("session", s.id),
			zap.String("set_by", by), zap.String("stored_model", cfg.Model), zap.String("stored_base_url", cfg.BaseURL))
		msg := fmt.Sprintf("model: %s (%s, %s), as %s sets it; the session's stored model %s (%s, %s) is not used",
			base.Model, base.Provider, base.BaseURL, by, cfg.Model, cfg.Provider, cfg.BaseURL)
		s.notify(Update{Kind: UpdateModel, Model: infoOf(base), Message: msg})
		return
	}
	client, err := s.c.connect(cfg) // Connect validates cfg
	if err == nil {
		err = s.agent.SetModel(rec.Settings(client))
	}
	log := s.c.log.With(zap.String("session", s.id), zap.String("provider", cfg.Provider), zap.String("model", cfg.Model))
	if err == nil {
		s.setModelConfig(cfg)
		log.Info("session model restored")
		return
	}
	log.Warn("session model cannot be restored: the configured model is used", zap.Error(err))
	msg := fmt.Sprintf("the session's model %s (%s, %s) cannot be used now: %v; the session talks to the configured model %s until it is switched again",
		cfg.Model, cfg.Provider, cfg.BaseURL, err, base.Model)
	s.notify(Update{Kind: UpdateModel, Model: infoOf(base), Message: msg})
}

// userChoiceDiffers names where the user chose the settings of base that
// the stored cfg does not have ("--base-url and --model"); "" when the
// stored model agrees with every setting the user chose.
func (s *Session) userChoiceDiffers(stored, base provider.Config) string {
	var by []string
	for _, f := range []struct{ key, stored, now string }{
		{"provider", stored.Provider, base.Provider},
		{"baseURL", stored.BaseURL, base.BaseURL},
		{"model", stored.Model, base.Model},
	} {
		if src, ok := s.c.o.UserModel[f.key]; ok && f.stored != f.now {
			by = append(by, src)
		}
	}
	return strings.Join(by, " and ")
}

// describeModels is the text of a bare /model: the current model and the presets.
func (s *Session) describeModels() string {
	cfg := s.modelConfig()
	var b strings.Builder
	fmt.Fprintf(&b, "Model: %s (%s, %s). Presets (/model <id>):", cfg.Model, cfg.Provider, cfg.BaseURL)
	for _, p := range s.c.Presets() {
		fmt.Fprintf(&b, "\n  %s: %s via %s", p.ID, p.Model, p.Provider)
	}
	return b.String()
}
