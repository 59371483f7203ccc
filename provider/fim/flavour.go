package fim

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// The dialect names of Config.Dialect.
const (
	DialectDeepSeek = "deepseek"
	DialectLlamaCpp = "llamacpp"
	DialectOllama   = "ollama"
	DialectMistral  = "mistral"
	DialectOpenAI   = "openai" // any OpenAI-style /completions that takes "suffix"
)

// framing is how a dialect's answer is streamed.
type framing uint8

const (
	framingSSE    framing = iota + 1 // text/event-stream "data:" frames
	framingNDJSON                    // one JSON object a line (Ollama)
)

// shape is a dialect's request body layout.
type shape uint8

const (
	shapeCompletions shape = iota + 1 // model, prompt, suffix, max_tokens, stop, temperature
	shapeInfill                       // input_prefix, input_suffix, input_extra, n_predict
	shapeGenerate                     // model, prompt, suffix, options{num_predict, stop, temperature}
)

// answer is the JSON layout of a dialect's stream frames.
type answer uint8

const (
	answerCompletions answer = iota + 1 // choices[0].text, finish_reason, [DONE]
	answerChatDelta                     // choices[0].delta.content, finish_reason, [DONE]
	answerInfill                        // content, stop, stop_type / stopped_limit
	answerGenerate                      // response, done, done_reason
)

// flavour is one dialect's row of the table: where the endpoint is, how its
// body is shaped, how its answer streams, and which optional fields it takes.
// A field the flavour does not list is never sent: the strict servers among
// these (OpenAI's, Mistral's) refuse parameters they do not know.
type flavour struct {
	name string
	// path is appended to the base URL; baseSuffix is the part of it a base
	// URL may already end with ("/beta" for DeepSeek, "/v1" for Mistral).
	path, baseSuffix string
	// defaultBase is the base URL used when the configuration names the
	// dialect but no base URL: the public API, or the local server's
	// default port.
	defaultBase string
	// stripBase are base suffixes dropped before the path is appended: a
	// chat base URL ending in "/v1" pointed at a server whose FIM endpoint
	// is not under /v1.
	stripBase []string
	shape     shape
	framing   framing
	answer    answer
	// modelRequired: the server refuses a request without "model".
	modelRequired bool
	// maxTokensLimit clamps MaxTokens (0: no known bound).
	maxTokensLimit int
	// defaultMaxTokens is sent when the request names none (0: send none).
	defaultMaxTokens int
	// maxStop bounds the number of stop sequences (0: no known bound).
	maxStop int
	// streamUsage sends stream_options {"include_usage":true}.
	streamUsage bool
	// extraField: the body has a field for other files (input_extra).
	extraField bool
}

// flavours is the table.
var flavours = map[string]flavour{
	// DeepSeek's FIM is a beta: base_url …/beta, completions at most 4K
	// tokens long, stop up to 16 sequences, usage on request.
	DialectDeepSeek: {
		name: DialectDeepSeek, defaultBase: "https://api.deepseek.com", path: "/beta/completions", baseSuffix: "/beta",
		shape: shapeCompletions, framing: framingSSE, answer: answerCompletions,
		modelRequired: true, maxTokensLimit: 4096, defaultMaxTokens: 256, maxStop: 16, streamUsage: true,
	},
	// llama.cpp's native infill: it builds the FIM prompt from the model's
	// own FIM tokens and takes other files as input_extra.
	DialectLlamaCpp: {
		name: DialectLlamaCpp, defaultBase: "http://localhost:8080", path: "/infill", stripBase: []string{"/v1"},
		shape: shapeInfill, framing: framingSSE, answer: answerInfill,
		defaultMaxTokens: 256, extraField: true,
	},
	// Ollama's native generate: the model's template places the suffix.
	DialectOllama: {
		name: DialectOllama, defaultBase: "http://localhost:11434", path: "/api/generate", stripBase: []string{"/v1", "/api"},
		shape: shapeGenerate, framing: framingNDJSON, answer: answerGenerate,
		modelRequired: true, defaultMaxTokens: 256,
	},
	// Mistral's (Codestral's) FIM endpoint streams chat-style deltas and
	// refuses unknown fields (422).
	DialectMistral: {
		name: DialectMistral, defaultBase: "https://api.mistral.ai", path: "/v1/fim/completions", baseSuffix: "/v1",
		shape: shapeCompletions, framing: framingSSE, answer: answerChatDelta,
		modelRequired: true, defaultMaxTokens: 256,
	},
	// OpenAI's legacy completions (gpt-3.5-turbo-instruct takes suffix) and
	// its compatibles (vLLM, LM Studio): stop at most 4 sequences.
	DialectOpenAI: {
		name: DialectOpenAI, defaultBase: "https://api.openai.com/v1", path: "/v1/completions", baseSuffix: "/v1",
		shape: shapeCompletions, framing: framingSSE, answer: answerCompletions,
		modelRequired: true, defaultMaxTokens: 256, maxStop: 4, streamUsage: true,
	},
}

// Dialects lists the dialect names, sorted.
func Dialects() []string {
	out := make([]string, 0, len(flavours))
	for name := range flavours {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// flavourOf returns the named dialect's flavour ("" detects it from baseURL).
func flavourOf(dialect, baseURL string) (flavour, error) {
	name := strings.ToLower(strings.TrimSpace(dialect))
	if name == "" {
		name = DetectDialect(baseURL)
	}
	f, ok := flavours[name]
	if !ok {
		return flavour{}, fmt.Errorf("unknown FIM dialect %q: want one of %s", dialect, strings.Join(Dialects(), ", "))
	}
	return f, nil
}

// DetectDialect guesses the FIM dialect from the base URL the way the chat
// guesses its server kind (provider.DetectKind): DeepSeek's and Mistral's
// hosts by name, Ollama (11434) and llama.cpp (8080) by their default ports.
// Anything else is taken for an OpenAI-style completions server.
func DetectDialect(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil {
		host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
		if host == "api.mistral.ai" || host == "codestral.mistral.ai" {
			return DialectMistral
		}
	}
	switch provider.DetectKind(baseURL) {
	case provider.KindDeepSeek:
		return DialectDeepSeek
	case provider.KindOllama:
		return DialectOllama
	case provider.KindLlamaCpp:
		return DialectLlamaCpp
	}
	return DialectOpenAI
}

// endpoint splits the request URL into the base and the path appended to
// it: a base already ending in the path's first part does not get it twice,
// and one ending in a part the endpoint is not under loses it.
func (f flavour) endpoint(base string) (root, path string) {
	base = strings.TrimRight(base, "/")
	for _, s := range f.stripBase {
		if strings.HasSuffix(base, s) {
			base = strings.TrimSuffix(base, s)
			break
		}
	}
	if f.baseSuffix != "" && strings.HasSuffix(base, f.baseSuffix) {
		return base, strings.TrimPrefix(f.path, f.baseSuffix)
	}
	return base, f.path
}

// maxTokens is what the body carries for the request's MaxTokens (0: none).
func (f flavour) maxTokens(n int) int {
	if n <= 0 {
		n = f.defaultMaxTokens
	}
	if f.maxTokensLimit > 0 && n > f.maxTokensLimit {
		n = f.maxTokensLimit
	}
	return n
}

// stops bounds the stop sequences to what the server takes.
func (f flavour) stops(stop []string) []string {
	if f.maxStop > 0 && len(stop) > f.maxStop {
		return stop[:f.maxStop]
	}
	return stop
}
