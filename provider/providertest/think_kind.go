package providertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Server kinds as the fake knows them: which thinking switch each real
// server reads, which it ignores and which it refuses. This is written from
// the servers' documented behaviour, apart from the encoders' flavour table,
// so a test against it can catch a table that sends the wrong field.
//
//	deepseek    reads "thinking":{"type"}; ignores the others
//	openai      refuses "thinking", "chat_template_kwargs", "reasoning"
//	            (unknown parameters); reasoning_effort must be a known value,
//	            and only its reasoning models (o1, o3, o4-mini, gpt-5…) take it
//	openrouter  reads "reasoning":{"effort"|"enabled"}
//	llamacpp    reads reasoning_effort "none" and
//	            chat_template_kwargs.enable_thinking; ignores "thinking",
//	            in both dialects
//	vllm        reads chat_template_kwargs.enable_thinking
//	ollama      reads reasoning_effort ("none": off)
//	lmstudio    reads reasoning_effort ("none": off)
//	anthropic   Messages: reads the thinking block, refuses chat_template_kwargs
//	""          the default fake: reads any of them

// WithServerKind makes the server read the thinking switches as that server
// kind does and refuse what it refuses (see the table above). The default
// reads every switch and refuses none.
func WithServerKind(kind string) Option { return func(s *Server) { s.kind = kind } }

// ThinkingRead is what a server understood from a request's switches.
type ThinkingRead struct {
	Off    bool   // the server turns thinking off
	Effort string // the effort it read ("": its default)
}

// ReadThinking reads body (of dialect "openai" or "anthropic") as a server
// of kind would. The error is the server's refusal.
func ReadThinking(dialect, kind string, body []byte) (ThinkingRead, error) {
	req, ok := decodeObject(body)
	if !ok {
		return ThinkingRead{}, errors.New("body is not a JSON object")
	}
	var (
		r   ThinkingRead
		rej *rejection
	)
	if dialect == dialectOpenAI {
		r, rej = readChatThinking(req, kind)
	} else {
		r, rej = readMessagesThinking(req, kind)
	}
	if rej != nil {
		return ThinkingRead{}, errors.New(rej.message)
	}
	return r, nil
}

func (s *Server) validateChatKind(body []byte) *rejection {
	return validateChatAs(body, s.mem, func(req object) (bool, *rejection) {
		r, rej := readChatThinking(req, s.kind)
		return r.Off, rej
	})
}

func (s *Server) validateMessagesKind(body []byte) *rejection {
	if req, ok := decodeObject(body); ok {
		if _, rej := readMessagesThinking(req, s.kind); rej != nil {
			return rej
		}
	}
	return validateMessages(body, s.mem)
}

// chatThinkingOffAnyKind is the default fake's reading.
func chatThinkingOffAnyKind(req object) (bool, *rejection) {
	r, rej := readChatThinking(req, "")
	return r.Off, rej
}

func readChatThinking(req object, kind string) (ThinkingRead, *rejection) {
	deepSeekOff, rej := chatThinkingDisabled(req)
	if rej != nil {
		return ThinkingRead{}, rej
	}
	effort, _ := req.str("reasoning_effort")
	templateOff := templateThinkingOff(req)
	routerOff, routerEffort := openRouterReasoning(req)
	switch kind {
	case "":
		off := deepSeekOff || effort == "none" || templateOff || routerOff
		return ThinkingRead{Off: off, Effort: firstNonEmpty(effort, routerEffort)}, nil
	case "deepseek":
		return ThinkingRead{Off: deepSeekOff, Effort: effort}, nil
	case "openai":
		for _, f := range []string{"thinking", "chat_template_kwargs", "reasoning"} {
			if req.kind(f) != kindAbsent {
				return ThinkingRead{}, badRequest("Unrecognized request argument supplied: %s", f)
			}
		}
		if model, _ := req.str("model"); effort != "" && !openAIReasons(model) {
			return ThinkingRead{}, badRequest("Unsupported parameter: 'reasoning_effort' is not supported with this model.")
		}
		switch effort {
		case "", "minimal", "low", "medium", "high":
		default:
			return ThinkingRead{}, badRequest("Invalid value for 'reasoning_effort': %q. Supported values are: 'minimal', 'low', 'medium', and 'high'.", effort)
		}
		return ThinkingRead{Effort: effort}, nil
	case "openrouter":
		return ThinkingRead{Off: routerOff, Effort: routerEffort}, nil
	case "llamacpp":
		return ThinkingRead{Off: effort == "none" || templateOff, Effort: noneless(effort)}, nil
	case "vllm":
		return ThinkingRead{Off: templateOff}, nil
	case "ollama", "lmstudio":
		return ThinkingRead{Off: effort == "none", Effort: noneless(effort)}, nil
	}
	return ThinkingRead{}, &rejection{status: 500, message: fmt.Sprintf("providertest: unknown server kind %q", kind)}
}

func readMessagesThinking(req object, kind string) (ThinkingRead, *rejection) {
	blockOff := true // the Messages API thinks only when asked
	if th, ok := decodeObject(req["thinking"]); ok {
		typ, _ := th.str("type")
		blockOff = typ != "enabled"
	}
	templateOff := templateThinkingOff(req)
	switch kind {
	case "", "generic":
		return ThinkingRead{Off: blockOff || templateOff}, nil
	case "anthropic":
		if req.kind("chat_template_kwargs") != kindAbsent {
			return ThinkingRead{}, badRequest("chat_template_kwargs: Extra inputs are not permitted")
		}
		return ThinkingRead{Off: blockOff}, nil
	case "deepseek", "ollama", "vllm", "lmstudio":
		return ThinkingRead{Off: blockOff}, nil
	case "llamacpp":
		// Its Messages endpoint hands the request to the chat template and
		// does not read the thinking block: a Qwen3 thinks unless told.
		return ThinkingRead{Off: templateOff}, nil
	}
	return ThinkingRead{}, &rejection{status: 500, message: fmt.Sprintf("providertest: unknown server kind %q", kind)}
}

// templateThinkingOff reads chat_template_kwargs.enable_thinking == false.
func templateThinkingOff(req object) bool {
	kw, ok := decodeObject(req["chat_template_kwargs"])
	if !ok {
		return false
	}
	var on *bool
	if json.Unmarshal(kw["enable_thinking"], &on) != nil || on == nil {
		return false
	}
	return !*on
}

// openRouterReasoning reads "reasoning":{"enabled":false} and its effort.
func openRouterReasoning(req object) (off bool, effort string) {
	r, ok := decodeObject(req["reasoning"])
	if !ok {
		return false, ""
	}
	effort, _ = r.str("effort")
	var enabled *bool
	if json.Unmarshal(r["enabled"], &enabled) == nil && enabled != nil && !*enabled {
		return true, effort
	}
	return effort == "none", effort
}

// openAIReasons: OpenAI's reasoning models, the ones taking reasoning_effort.
func openAIReasons(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if model == p || strings.HasPrefix(model, p+"-") || strings.HasPrefix(model, p+".") {
			return true
		}
	}
	return false
}

func noneless(effort string) string {
	if effort == "none" {
		return ""
	}
	return effort
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
