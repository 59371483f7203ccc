package provider

import (
	"fmt"
	"strings"
)

// Preset names a model connection a user can switch to by name: a dialect,
// an endpoint, a model and where its key is.
type Preset struct {
	ID        string `json:"id"`
	Provider  string `json:"provider"` // dialect: "openai" or "anthropic"
	Model     string `json:"model"`
	BaseURL   string `json:"baseURL"`
	APIKeyEnv string `json:"apiKeyEnv"` // "none": no key
	// Free: the server costs nothing (a local one); its calls cost $0.
	Free bool `json:"free,omitempty"`
	// Vision says whether the model takes images; nil: TakesImages decides.
	Vision *bool `json:"vision,omitempty"`
}

// DefaultPresets are the connections every front end offers: DeepSeek in
// both dialects, OpenAI, Anthropic, OpenRouter and a local Ollama.
func DefaultPresets() []Preset {
	return []Preset{
		{ID: "deepseek", Provider: "openai", Model: "deepseek-flash", BaseURL: "https://api.deepseek.com", APIKeyEnv: "DEEPSEEK_API_KEY"},
		{ID: "deepseek-anthropic", Provider: "anthropic", Model: "deepseek-flash", BaseURL: "https://api.deepseek.com/anthropic", APIKeyEnv: "DEEPSEEK_API_KEY"},
		{ID: "openai", Provider: "openai", Model: "gpt-4.1", BaseURL: "https://api.openai.com/v1", APIKeyEnv: "OPENAI_API_KEY"},
		{ID: "anthropic", Provider: "anthropic", Model: "claude-sonnet-4-5", BaseURL: "https://api.anthropic.com", APIKeyEnv: "ANTHROPIC_API_KEY"},
		{ID: "openrouter", Provider: "openai", Model: "anthropic/claude-sonnet-4.5", BaseURL: "https://openrouter.ai/api/v1", APIKeyEnv: "OPENROUTER_API_KEY"},
		{ID: "ollama", Provider: "openai", Model: "qwen3-coder", BaseURL: "http://localhost:11434/v1", APIKeyEnv: "none", Free: true},
	}
}

// FindPreset returns the preset with this id (case-insensitive).
func FindPreset(presets []Preset, id string) (Preset, bool) {
	for _, p := range presets {
		if strings.EqualFold(p.ID, strings.TrimSpace(id)) {
			return p, true
		}
	}
	return Preset{}, false
}

// Apply returns base switched to the preset: dialect, endpoint, model and
// key variable, and whether it is free; the answer budget, thinking and
// timeouts stay. The server kind is detected again: a kind set for the old
// server is not the new one's.
func (p Preset) Apply(base Config) Config {
	base.Provider, base.Model, base.BaseURL, base.APIKeyEnv = p.Provider, p.Model, p.BaseURL, p.APIKeyEnv
	base.ServerKind = ""
	base.Free = p.Free
	base.Vision = p.Vision
	if p.BaseURL == "" || p.APIKeyEnv == "" {
		d := DefaultConfig(p.Provider)
		if p.BaseURL == "" {
			base.BaseURL = d.BaseURL
		}
		if p.APIKeyEnv == "" {
			base.APIKeyEnv = d.APIKeyEnv
		}
	}
	return base
}

// Validate checks a preset given by a user.
func (p Preset) Validate() error {
	if strings.TrimSpace(p.ID) == "" {
		return fmt.Errorf("model preset without an id")
	}
	if _, ok := dialectDefaults[p.Provider]; !ok {
		return fmt.Errorf("model preset %q: unknown provider %q: want \"openai\" or \"anthropic\"", p.ID, p.Provider)
	}
	if strings.TrimSpace(p.Model) == "" {
		return fmt.Errorf("model preset %q: no model", p.ID)
	}
	return nil
}
