package provider

import (
	"strings"
	"testing"
)

func TestDetectKindFromTheBaseURL(t *testing.T) {
	for base, want := range map[string]string{
		"https://api.deepseek.com":                 KindDeepSeek,
		"https://api.deepseek.com/anthropic":       KindDeepSeek,
		"https://api.openai.com/v1":                KindOpenAI,
		"https://my.openai.azure.com/openai":       KindOpenAI,
		"https://openrouter.ai/api/v1":             KindOpenRouter,
		"https://api.anthropic.com":                KindAnthropic,
		"http://localhost:11434/v1":                KindOllama,
		"http://127.0.0.1:1234/v1":                 KindLMStudio,
		"http://localhost:8080":                    KindLlamaCpp,
		"http://gpu-box:8000/v1":                   KindVLLM,
		"http://127.0.0.1:39123":                   KindGeneric,
		"https://llm.example.com/v1":               KindGeneric,
		"::not a url":                              KindGeneric,
		"https://API.DeepSeek.com./chat/completio": KindDeepSeek,
	} {
		if got := DetectKind(base); got != want {
			t.Errorf("DetectKind(%q) = %q, want %q", base, got, want)
		}
	}
}

// The setting wins over detection, and an unknown kind is a configuration
// mistake Validate names.
func TestServerKindSettingWinsAndIsValidated(t *testing.T) {
	cfg := DefaultConfig("openai")
	if got := cfg.Flavour().Kind; got != KindDeepSeek {
		t.Fatalf("default flavour = %q, want deepseek", got)
	}
	cfg.BaseURL = "http://localhost:11434/v1"
	if got := cfg.Flavour().Kind; got != KindOllama {
		t.Fatalf("detected flavour = %q, want ollama", got)
	}
	cfg.ServerKind = "LlamaCpp"
	if got := cfg.Flavour().Kind; got != KindLlamaCpp {
		t.Fatalf("set flavour = %q, want llamacpp", got)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	cfg.ServerKind = "kobold"
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), `unknown server kind "kobold"`) {
		t.Fatalf("Validate = %v, want the unknown server kind named", err)
	}
}

// Every kind has a flavour; only DeepSeek's carries DeepSeek's switch, and
// OpenAI's carries none (it refuses unknown parameters).
func TestFlavourTableShape(t *testing.T) {
	for _, k := range ServerKinds() {
		f, ok := FlavourOf(k)
		if !ok || f.Kind != k {
			t.Fatalf("FlavourOf(%q) = %+v, %v", k, f, ok)
		}
		if f.DeepSeekThinking != (k == KindDeepSeek) {
			t.Errorf("%s: DeepSeekThinking = %v", k, f.DeepSeekThinking)
		}
	}
	if f, _ := FlavourOf(KindOpenAI); f.DeepSeekThinking || f.TemplateKwargs || f.OpenRouterReasoning || f.EffortOff != "" || !f.EffortReasoningModelsOnly {
		t.Errorf("openai flavour sends %+v, want reasoning_effort to reasoning models only", f)
	}
}

func TestReasoningModel(t *testing.T) {
	for model, want := range map[string]bool{
		"o3": true, "o4-mini": true, "o1-preview": true, "gpt-5": true, "gpt-5.1": true, "gpt-5-mini": true,
		"openai/o3": true, "gpt-4.1": false, "gpt-4o": false, "o3x": false, "deepseek-flash": false,
	} {
		if got := ReasoningModel(model); got != want {
			t.Errorf("ReasoningModel(%q) = %v, want %v", model, got, want)
		}
	}
}

// A preset is another server: a kind set for the old one is dropped and
// the new base URL's is detected.
func TestPresetApplyDetectsTheKindAgain(t *testing.T) {
	cfg := DefaultConfig("openai")
	cfg.ServerKind = KindLlamaCpp
	p, _ := FindPreset(DefaultPresets(), "ollama")
	if got := p.Apply(cfg); got.ServerKind != "" || got.Flavour().Kind != KindOllama {
		t.Fatalf("after the ollama preset: kind %q, flavour %q", got.ServerKind, got.Flavour().Kind)
	}
}
