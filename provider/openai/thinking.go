package openai

import "github.com/agent-lsp/agent-lsp/provider"

// The thinking switches of the Chat Completions servers. Each is sent only
// to the server kinds that read it (provider.Flavour), because a strict
// server (OpenAI's) refuses a parameter it does not know and a lenient one
// (llama.cpp's) silently ignores another server's spelling.

type wireThinking struct {
	Type string `json:"type"` // "enabled" | "disabled"
}

// wireTemplateKwargs reaches the chat template of llama.cpp and vLLM;
// Qwen3-style templates read enable_thinking.
type wireTemplateKwargs struct {
	EnableThinking bool `json:"enable_thinking"`
}

// wireReasoning is OpenRouter's switch: an effort, or enabled:false.
type wireReasoning struct {
	Effort  string `json:"effort,omitempty"`
	Enabled *bool  `json:"enabled,omitempty"`
}

// setThinking fills the switches f's server reads. An empty effort with
// thinking on sends no effort: the server's default strength.
func setThinking(body *wireRequest, f provider.Flavour, t provider.Thinking) {
	if f.EffortReasoningModelsOnly && !provider.ReasoningModel(body.Model) {
		f.ReasoningEffort = false
	}
	on := t.Enabled
	effort := f.ChatEffort(t.Effort)
	if f.DeepSeekThinking {
		body.Thinking = &wireThinking{Type: "disabled"}
		if on {
			body.Thinking.Type = "enabled"
		}
	}
	if f.ReasoningEffort {
		switch {
		case on:
			body.ReasoningEffort = effort
		case f.EffortOff != "":
			body.ReasoningEffort = f.EffortOff
		}
	}
	if f.TemplateKwargs {
		body.ChatTemplateKwargs = &wireTemplateKwargs{EnableThinking: on}
	}
	if f.OpenRouterReasoning {
		if on {
			body.Reasoning = &wireReasoning{Effort: effort}
			if effort == "" {
				enabled := true
				body.Reasoning.Enabled = &enabled
			}
		} else {
			disabled := false
			body.Reasoning = &wireReasoning{Enabled: &disabled}
		}
	}
}
