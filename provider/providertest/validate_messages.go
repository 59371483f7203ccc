package providertest

import (
	"net/http"
	"strconv"
	"strings"
)

// Messages validation: what the Anthropic Messages API refuses. The messages
// mirror the real ones where they are known.

const messagesToolNameMax = 128

// checkMessagesHeaders checks credentials and the version header. A missing or
// wrong x-api-key is 401 authentication_error, as the real API answers; so is
// an Authorization header sent instead of x-api-key (the Chat Completions
// habit), whether or not the server requires a key. A missing
// anthropic-version is 400 invalid_request_error.
func checkMessagesHeaders(h http.Header, apiKey string) *rejection {
	key := h.Get("X-Api-Key")
	switch {
	case key == "" && h.Get("Authorization") != "":
		return unauthorized("x-api-key header is required (an Authorization header is not how this API authenticates)")
	case apiKey != "" && key == "":
		return unauthorized("x-api-key header is required")
	case apiKey != "" && key != apiKey:
		return unauthorized("invalid x-api-key")
	case h.Get("Anthropic-Version") == "":
		return badRequest("anthropic-version: header is required")
	}
	return nil
}

// validateMessages checks a Messages request body.
func validateMessages(body []byte, mem *memory) *rejection {
	req, ok := decodeObject(body)
	if !ok {
		return badRequest("There was an error parsing the body: expected a JSON object")
	}
	if model, ok := req.str("model"); !ok || model == "" {
		return badRequest("model: Field required")
	}
	if req.kind("max_tokens") == kindAbsent {
		return badRequest("max_tokens: Field required")
	}
	maxTokens, ok := req.positiveInt("max_tokens")
	if !ok {
		return badRequest("max_tokens: Input should be a valid integer greater than or equal to 1")
	}
	if !req.isTrue("stream") {
		return badRequest("stream: providertest serves streaming requests only; `stream` must be true")
	}
	if rej := validateSystem(req); rej != nil {
		return rej
	}
	if rej := validateMessagesTools(req); rej != nil {
		return rej
	}
	thinking, rej := validateThinking(req, maxTokens)
	if rej != nil {
		return rej
	}
	if req.kind("messages") == kindAbsent {
		return badRequest("messages: Field required")
	}
	messages, ok := decodeArray(req["messages"])
	if !ok {
		return badRequest("messages: Input should be a valid list")
	}
	if len(messages) == 0 {
		return badRequest("messages: at least one message is required")
	}
	if rej := validateMessagesList(messages, thinking, mem); rej != nil {
		return rej
	}
	if thinking && !mem.unsigned {
		return checkOpenToolLoopThinking(messages)
	}
	return nil
}

func validateSystem(req object) *rejection {
	switch k := req.kind("system"); k {
	case kindAbsent, kindString:
		return nil
	case kindArray:
		blocks, _ := decodeArray(req["system"])
		for j, raw := range blocks {
			b, ok := decodeObject(raw)
			if typ, _ := b.str("type"); !ok || typ != "text" {
				return badRequest("system.%d.type: Input should be 'text'", j)
			}
			if rej := checkTextBlock(b, "system."+strconv.Itoa(j)); rej != nil {
				return rej
			}
		}
		return nil
	default:
		return badRequest("system: Input should be a valid string or a list of text blocks, got %s", k)
	}
}

func validateMessagesTools(req object) *rejection {
	if req.kind("tools") == kindAbsent {
		return nil
	}
	tools, ok := decodeArray(req["tools"])
	if !ok {
		return badRequest("tools: Input should be a valid list")
	}
	names := map[string]bool{}
	for i, raw := range tools {
		tool, ok := decodeObject(raw)
		if !ok {
			return badRequest("tools.%d: Input should be a valid dictionary", i)
		}
		if typ, ok := tool.str("type"); ok && typ != "custom" {
			return badRequest("tools.%d.type: unknown tool type %q (providertest knows only custom tools)", i, typ)
		}
		if tool.kind("function") != kindAbsent {
			return badRequest("tools.%d.function: Extra inputs are not permitted (Messages tools are flat: name, description, input_schema)", i)
		}
		name, _ := tool.str("name")
		if !validToolName(name, messagesToolNameMax) {
			return badRequest("tools.%d.name: %q should match pattern '^[a-zA-Z0-9_-]{1,128}$'", i, name)
		}
		if names[name] {
			return badRequest("tools: Tool names must be unique (%q)", name)
		}
		names[name] = true
		if tool.kind("input_schema") == kindAbsent {
			return badRequest("tools.%d.custom.input_schema: Field required", i)
		}
		schema, ok := decodeObject(tool["input_schema"])
		if !ok {
			return badRequest("tools.%d.custom.input_schema: Input should be a valid dictionary", i)
		}
		if typ, _ := schema.str("type"); typ != "object" {
			return badRequest("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
	}
	return nil
}

// validateThinking checks the thinking parameter and reports whether it is on.
func validateThinking(req object, maxTokens int64) (bool, *rejection) {
	if req.kind("thinking") == kindAbsent {
		return false, nil
	}
	th, ok := decodeObject(req["thinking"])
	if !ok {
		return false, badRequest("thinking: Input should be a valid dictionary")
	}
	typ, _ := th.str("type")
	switch typ {
	case "disabled":
		return false, nil
	case "enabled", "adaptive":
	default:
		return false, badRequest("thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'")
	}
	if th.kind("budget_tokens") != kindAbsent {
		budget, ok := th.positiveInt("budget_tokens")
		switch {
		case !ok || budget < 1024:
			return false, badRequest("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
		case budget >= maxTokens:
			return false, badRequest("`max_tokens` must be greater than `thinking.budget_tokens`")
		}
	}
	return true, nil
}

// checkTextBlock refuses a text block whose text is missing, empty or blank.
func checkTextBlock(b object, at string) *rejection {
	text, ok := b.str("text")
	switch {
	case !ok:
		return badRequest("%s.text: Field required", at)
	case text == "":
		return badRequest("%s: text content blocks must be non-empty", at)
	case strings.TrimSpace(text) == "":
		return badRequest("%s: text content blocks must contain non-whitespace text", at)
	}
	return nil
}
