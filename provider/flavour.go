package provider

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
)

// Server kinds: which server sits behind the base URL. The dialect says how
// a request is shaped; the kind says which of the thinking switches the
// server reads and which it refuses, since every server spells "think" and
// "don't think" differently and some answer 400 to another's spelling.
const (
	KindDeepSeek   = "deepseek"
	KindOpenAI     = "openai"
	KindOpenRouter = "openrouter"
	KindLlamaCpp   = "llamacpp"
	KindVLLM       = "vllm"
	KindOllama     = "ollama"
	KindLMStudio   = "lmstudio"
	KindAnthropic  = "anthropic"
	KindGeneric    = "generic"
)

// Flavour is what one server kind reads as the thinking switch and effort.
// Every field is a wire field the dialect encoders may send; a field left
// false is never sent to that kind, because the strict servers among them
// (OpenAI's, Anthropic's) answer 400 to parameters they do not know.
type Flavour struct {
	Kind string
	// DeepSeekThinking: Chat Completions `"thinking":{"type":"enabled"|"disabled"}`.
	DeepSeekThinking bool
	// ReasoningEffort: `"reasoning_effort"` carries the effort when thinking
	// is on.
	ReasoningEffort bool
	// EffortOff is the reasoning_effort value that turns thinking off
	// ("none" for llama.cpp and Ollama); "" sends no reasoning_effort then.
	EffortOff string
	// EffortReasoningModelsOnly sends reasoning_effort only to models that
	// reason (OpenAI's o-series and gpt-5 family): the others answer 400 to it.
	EffortReasoningModelsOnly bool
	// MaxEffort is what the neutral "max" becomes on a server whose
	// reasoning_effort stops at "high"; "" keeps "max".
	MaxEffort string
	// TemplateKwargs: `"chat_template_kwargs":{"enable_thinking":bool}`, the
	// switch of Qwen3-style chat templates on llama.cpp and vLLM (both
	// dialects on llama.cpp: its Messages endpoint shares the parser).
	TemplateKwargs bool
	// OpenRouterReasoning: `"reasoning":{"effort":…}` or `{"enabled":false}`.
	OpenRouterReasoning bool
	// AnthropicThinking: Messages `"thinking":{"type":…,"budget_tokens":…}`.
	AnthropicThinking bool
	// UnsignedThinking: the server signs no thinking (llama.cpp ends a
	// thinking block with an empty signature) and reads a thinking block
	// sent back as plain reasoning, signature or not. Its Messages tool
	// loop keeps the reasoning and thinking on; Anthropic's rule (an
	// unsigned block is refused, a tool loop without one must turn
	// thinking off) is for the servers that sign.
	UnsignedThinking bool
}

// flavours is the table. The Messages dialect uses only AnthropicThinking
// and TemplateKwargs; the Chat Completions dialect uses the rest.
var flavours = map[string]Flavour{
	// DeepSeek reads its own switch on both dialects.
	KindDeepSeek: {Kind: KindDeepSeek, DeepSeekThinking: true, ReasoningEffort: true, AnthropicThinking: true},
	// OpenAI refuses unknown parameters, and reasoning_effort too on its
	// non-reasoning models (gpt-4.1, the preset's). It has no off switch
	// that every reasoning model takes, so off sends nothing.
	KindOpenAI:     {Kind: KindOpenAI, ReasoningEffort: true, EffortReasoningModelsOnly: true, MaxEffort: "high"},
	KindOpenRouter: {Kind: KindOpenRouter, OpenRouterReasoning: true, MaxEffort: "high"},
	// llama.cpp reads both; the template switch is the one Qwen3 honours,
	// reasoning_effort the one gpt-oss templates read.
	KindLlamaCpp: {Kind: KindLlamaCpp, ReasoningEffort: true, EffortOff: "none", MaxEffort: "high", TemplateKwargs: true, AnthropicThinking: true, UnsignedThinking: true},
	KindVLLM:     {Kind: KindVLLM, TemplateKwargs: true, AnthropicThinking: true},
	// Ollama's OpenAI-compatible endpoint turns thinking off only on
	// reasoning_effort "none" (its native "think" is not read there).
	KindOllama:    {Kind: KindOllama, ReasoningEffort: true, EffortOff: "none", MaxEffort: "high", AnthropicThinking: true},
	KindLMStudio:  {Kind: KindLMStudio, ReasoningEffort: true, EffortOff: "none", MaxEffort: "high", TemplateKwargs: true, AnthropicThinking: true},
	KindAnthropic: {Kind: KindAnthropic, AnthropicThinking: true},
	// An unknown compatible server is most often a local one: the two
	// switches local servers read, and no DeepSeek field.
	KindGeneric: {Kind: KindGeneric, ReasoningEffort: true, EffortOff: "none", MaxEffort: "high", TemplateKwargs: true, AnthropicThinking: true},
}

// ServerKinds lists the known kinds, sorted.
func ServerKinds() []string {
	kinds := make([]string, 0, len(flavours))
	for k := range flavours {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// FlavourOf returns the flavour of kind; ok is false for an unknown kind.
func FlavourOf(kind string) (Flavour, bool) {
	f, ok := flavours[strings.ToLower(strings.TrimSpace(kind))]
	return f, ok
}

// DetectKind guesses the server kind from the base URL: the public hosts by
// name, the local servers by their default ports (Ollama 11434, LM Studio
// 1234, llama.cpp 8080, vLLM 8000). Anything else is generic.
func DetectKind(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return KindGeneric
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	switch {
	case host == "api.deepseek.com":
		return KindDeepSeek
	case host == "api.openai.com" || strings.HasSuffix(host, ".openai.azure.com"):
		return KindOpenAI
	case host == "openrouter.ai" || strings.HasSuffix(host, ".openrouter.ai"):
		return KindOpenRouter
	case host == "api.anthropic.com":
		return KindAnthropic
	case host == "ollama.com" || strings.HasSuffix(host, ".ollama.com"):
		return KindOllama
	}
	switch u.Port() {
	case "11434":
		return KindOllama
	case "1234":
		return KindLMStudio
	case "8080":
		return KindLlamaCpp
	case "8000":
		return KindVLLM
	}
	return KindGeneric
}

// KindFromHeader is the server kind a response's headers name ("" when
// they name none): llama.cpp's server answers every request with "Server:
// llama.cpp", whatever port it listens on.
func KindFromHeader(h http.Header) string {
	if strings.Contains(strings.ToLower(h.Get("Server")), "llama.cpp") {
		return KindLlamaCpp
	}
	return ""
}

// Flavour is the flavour of the configured server: ServerKind when set,
// else the one detected from BaseURL. Validate rejects an unknown kind; an
// unknown one here falls back to generic.
func (c Config) Flavour() Flavour {
	kind := c.ServerKind
	if strings.TrimSpace(kind) == "" {
		kind = DetectKind(c.BaseURL)
	}
	if f, ok := FlavourOf(kind); ok {
		return f
	}
	return flavours[KindGeneric]
}

// validateServerKind reports an unknown ServerKind ("" is detection).
func validateServerKind(kind string) error {
	if strings.TrimSpace(kind) == "" {
		return nil
	}
	if _, ok := FlavourOf(kind); !ok {
		return fmt.Errorf("unknown server kind %q: want one of %s", kind, strings.Join(ServerKinds(), ", "))
	}
	return nil
}

// ReasoningModel reports whether model is one of OpenAI's reasoning models
// (o1, o3, o4-mini, gpt-5…), the ones that take reasoning_effort.
func ReasoningModel(model string) bool {
	m := strings.ToLower(model)
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // "openai/o3" as a router names it
	}
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if m == p || strings.HasPrefix(m, p+"-") || strings.HasPrefix(m, p+".") {
			return true
		}
	}
	return false
}

// ChatEffort is the reasoning_effort value for effort on this flavour.
func (f Flavour) ChatEffort(effort string) string {
	if effort == "max" && f.MaxEffort != "" {
		return f.MaxEffort
	}
	return effort
}
