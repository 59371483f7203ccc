package provider

import "testing"

func TestPresets(t *testing.T) {
	ps := DefaultPresets()
	seen := map[string]bool{}
	for _, p := range ps {
		if err := p.Validate(); err != nil {
			t.Errorf("default preset: %v", err)
		}
		cfg := p.Apply(DefaultConfig(""))
		if err := cfg.Validate(); err != nil {
			t.Errorf("preset %s gives an invalid config: %v", p.ID, err)
		}
		seen[p.ID] = true
	}
	for _, id := range []string{"deepseek", "deepseek-anthropic", "openai", "anthropic", "openrouter", "ollama"} {
		if !seen[id] {
			t.Errorf("no default preset %s", id)
		}
	}
	p, ok := FindPreset(ps, "Deepseek-Anthropic")
	if !ok || p.Provider != "anthropic" {
		t.Fatalf("FindPreset = %+v %v", p, ok)
	}
	base := DefaultConfig("openai")
	base.MaxTokens, base.Effort = 1234, "low"
	got := p.Apply(base)
	if got.Provider != "anthropic" || got.BaseURL != "https://api.deepseek.com/anthropic" || got.MaxTokens != 1234 || got.Effort != "low" {
		t.Errorf("Apply = %+v", got)
	}
	// A user preset may leave the endpoint and key to the dialect's defaults.
	got = Preset{ID: "x", Provider: "anthropic", Model: "m"}.Apply(base)
	if got.BaseURL != "https://api.deepseek.com/anthropic" || got.APIKeyEnv != "DEEPSEEK_API_KEY" {
		t.Errorf("Apply of a bare preset = %+v", got)
	}
	for _, bad := range []Preset{{Provider: "openai", Model: "m"}, {ID: "x", Provider: "gemini", Model: "m"}, {ID: "x", Provider: "openai"}} {
		if bad.Validate() == nil {
			t.Errorf("preset %+v validated", bad)
		}
	}
}
