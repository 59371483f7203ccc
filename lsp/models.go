package lsp

import (
	"context"

	"github.com/agent-lsp/agent-lsp/agent/control"
)

// modelPreset is a connection the user can switch a session to
// (initializationOptions.models, agent/models): the controller's preset,
// whose JSON is the wire format.
type modelPreset = control.Preset

type modelsParams struct {
	SessionID string `json:"sessionId"`
}

type currentModel struct {
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseURL"`
	// ContextWindow is the window the session's budget follows, and
	// ContextWindowSource where it comes from: "setting", "preset",
	// "table", "server: <endpoint> <field>", "probing" (the server is being
	// asked) or "default". Without a session: the setting or the table only.
	ContextWindow       int    `json:"contextWindow,omitempty"`
	ContextWindowSource string `json:"contextWindowSource,omitempty"`
}

type modelsResult struct {
	Models  []modelPreset `json:"models"`
	Current *currentModel `json:"current,omitempty"`
}

// listModels serves agent/models: the presets, and the session's current
// model when a session is named (else the daemon's).
func (s *server) listModels(_ context.Context, p modelsParams) (modelsResult, error) {
	s.mu.Lock()
	ctl, cfg := s.ctl, s.settings.model
	s.mu.Unlock()
	if ctl == nil {
		return modelsResult{}, errNotInitialized
	}
	cur := currentModel{Provider: cfg.Provider, Model: cfg.Model, BaseURL: cfg.BaseURL}
	w := control.ConfiguredWindow(cfg) // a session's discovery may change it
	cur.ContextWindow, cur.ContextWindowSource = w.Tokens, w.Source
	if p.SessionID != "" {
		sess, err := s.sessions.lookup(p.SessionID)
		if err != nil {
			return modelsResult{}, err
		}
		cur = currentOf(sess.ctl.Model())
		w := sess.ctl.ContextWindow()
		cur.ContextWindow, cur.ContextWindowSource = w.Tokens, w.Source
	}
	return modelsResult{Models: ctl.Presets(), Current: &cur}, nil
}

func currentOf(m control.ModelInfo) currentModel {
	return currentModel{Provider: m.Provider, Model: m.Model, BaseURL: m.BaseURL}
}

type setModelParams struct {
	sessionRef
	Preset    string  `json:"preset"`
	Provider  *string `json:"provider"`
	Model     string  `json:"model"`
	BaseURL   *string `json:"baseURL"`
	APIKeyEnv *string `json:"apiKeyEnv"`
}

// setModel serves agent/setModel: the switch takes effect at the
// session's next model call (control.Session.SetModel).
func (s *server) setModel(_ context.Context, sess *session, p setModelParams) (currentModel, error) {
	m, err := sess.ctl.SetModel(control.ModelChoice{Preset: p.Preset, Provider: p.Provider, Model: p.Model,
		BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv})
	if err != nil {
		return currentModel{}, controlError(err, p.SessionID)
	}
	return currentOf(m), nil
}
