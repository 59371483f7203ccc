package providertest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// Chat Completions validation: what DeepSeek's (and OpenAI's) endpoint
// refuses. The messages mirror the real ones where they are known.

const chatToolNameMax = 64

func checkChatAuth(h http.Header, apiKey string) *rejection {
	if apiKey == "" {
		return nil
	}
	if h.Get("Authorization") != "Bearer "+apiKey {
		// The real message echoes a masked key; the fake never echoes keys.
		return unauthorized("Authentication Fails, Your api key is invalid")
	}
	return nil
}

// validateChat checks a Chat Completions request body, reading the thinking
// switch as the default (lenient) server does.
func validateChat(body []byte, mem *memory) *rejection {
	return validateChatAs(body, mem, chatThinkingOffAnyKind)
}

// validateChatAs checks a Chat Completions request body; thinkingOff reads
// the thinking switch the way one server kind does (think_kind.go).
func validateChatAs(body []byte, mem *memory, thinkingOff func(object) (bool, *rejection)) *rejection {
	req, ok := decodeObject(body)
	if !ok {
		return badRequest("Failed to deserialize the JSON body into the target type: expected a JSON object")
	}
	if model, ok := req.str("model"); !ok || model == "" {
		return badRequest("model: missing field `model` (a non-empty string)")
	}
	if !req.isTrue("stream") {
		return badRequest("stream: providertest serves streaming requests only; `stream` must be true")
	}
	if req.kind("max_tokens") != kindAbsent {
		if _, ok := req.positiveInt("max_tokens"); !ok {
			return badRequest("max_tokens: expected a positive integer")
		}
	}
	hasTools, rej := validateChatTools(req)
	if rej != nil {
		return rej
	}
	off, rej := thinkingOff(req)
	if rej != nil {
		return rej
	}
	messages, ok := decodeArray(req["messages"])
	if !ok {
		return badRequest("messages: missing field `messages` (an array)")
	}
	if len(messages) == 0 {
		return badRequest("messages: empty array; expected at least one message")
	}
	// Wire rule 6 (docs/design.md §5) holds in thinking mode only: without thinking the model neither
	// produces reasoning nor needs it back.
	return validateChatMessages(messages, hasTools && !off, mem)
}

// chatThinkingDisabled checks DeepSeek's thinking switch,
// {"thinking":{"type":"enabled"|"disabled"}} (on when absent).
func chatThinkingDisabled(req object) (bool, *rejection) {
	if req.kind("thinking") == kindAbsent {
		return false, nil
	}
	th, ok := decodeObject(req["thinking"])
	if !ok {
		return false, badRequest("thinking: expected an object")
	}
	switch typ, _ := th.str("type"); typ {
	case "enabled":
		return false, nil
	case "disabled":
		return true, nil
	default:
		return false, badRequest("thinking.type: unknown variant `%s`, expected `enabled` or `disabled`", typ)
	}
}

// validateChatTools checks wire rule 4 (docs/design.md §5): a tool is
// {"type":"function","function":{"name","description","parameters"}}.
func validateChatTools(req object) (hasTools bool, rej *rejection) {
	switch req.kind("tools") {
	case kindAbsent, kindNull:
		if k := req.kind("tool_choice"); k != kindAbsent && k != kindNull {
			return false, badRequest("tool_choice: only allowed when tools are specified")
		}
		return false, nil
	}
	tools, ok := decodeArray(req["tools"])
	if !ok {
		return false, badRequest("tools: expected an array")
	}
	if len(tools) == 0 {
		return false, badRequest("tools: empty array; expected an array with minimum length 1 (omit it instead)")
	}
	names := map[string]bool{}
	for i, raw := range tools {
		tool, ok := decodeObject(raw)
		if !ok {
			return false, badRequest("tools[%d]: expected an object", i)
		}
		if typ, _ := tool.str("type"); typ != "function" {
			return false, badRequest("tools[%d].type: missing or not \"function\" (a tool is {\"type\":\"function\",\"function\":{...}})", i)
		}
		fn, ok := decodeObject(tool["function"])
		if !ok {
			return false, badRequest("tools[%d].function: missing; name and parameters nest inside `function`", i)
		}
		name, _ := fn.str("name")
		if !validToolName(name, chatToolNameMax) {
			return false, badRequest("tools[%d].function.name: %q must match ^[a-zA-Z0-9_-]{1,64}$", i, name)
		}
		if names[name] {
			return false, badRequest("tools[%d].function.name: duplicate tool name %q", i, name)
		}
		names[name] = true
		if k := fn.kind("parameters"); k != kindAbsent && k != kindObject {
			return false, badRequest("tools[%d].function.parameters: expected an object, got %s", i, k)
		}
		for _, misplaced := range []string{"name", "parameters"} {
			if tool.kind(misplaced) != kindAbsent {
				return false, badRequest("tools[%d].%s: unknown field; it belongs inside `function`", i, misplaced)
			}
		}
	}
	return true, nil
}

// chatToolRun tracks the calls of the latest assistant message while its tool
// messages follow it.
type chatToolRun struct {
	assistant int      // message index of the assistant message
	ids       []string // its calls, in order
	answered  map[string]bool
}

func (r *chatToolRun) unanswered() []string {
	var out []string
	for _, id := range r.ids {
		if !r.answered[id] {
			out = append(out, id)
		}
	}
	return out
}

func validateChatMessages(messages []json.RawMessage, needReasoning bool, mem *memory) *rejection {
	var run *chatToolRun
	for i, raw := range messages {
		msg, ok := decodeObject(raw)
		if !ok {
			return badRequest("messages[%d]: expected an object", i)
		}
		role, _ := msg.str("role")
		if role != "tool" && run != nil {
			if missing := run.unanswered(); len(missing) > 0 {
				return badRequest("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s (messages[%d])", strings.Join(missing, ", "), run.assistant)
			}
			run = nil
		}
		if rej := checkChatImages(msg, i, role, mem); rej != nil {
			return rej
		}
		switch role {
		case "system", "user":
			if rej := checkChatContent(msg, i, false); rej != nil {
				return rej
			}
		case "assistant":
			ids, rej := validateChatAssistant(msg, i, needReasoning, mem)
			if rej != nil {
				return rej
			}
			if len(ids) > 0 {
				run = &chatToolRun{assistant: i, ids: ids, answered: map[string]bool{}}
			}
		case "tool":
			if rej := checkChatContent(msg, i, false); rej != nil {
				return rej
			}
			id, ok := msg.str("tool_call_id")
			if !ok || id == "" {
				return badRequest("messages[%d].tool_call_id: missing field `tool_call_id`", i)
			}
			if run == nil {
				return badRequest("Messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[%d], tool_call_id %s)", i, id)
			}
			if !slices.Contains(run.ids, id) {
				return badRequest("messages[%d].tool_call_id: %s matches no tool call of the preceding assistant message (messages[%d])", i, id, run.assistant)
			}
			if run.answered[id] {
				return badRequest("messages[%d].tool_call_id: %s is answered twice", i, id)
			}
			run.answered[id] = true
		default:
			return badRequest("messages[%d].role: unknown variant `%s`, expected one of `system`, `user`, `assistant`, `tool`", i, role)
		}
	}
	if run != nil {
		if missing := run.unanswered(); len(missing) > 0 {
			return badRequest("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s (messages[%d])", strings.Join(missing, ", "), run.assistant)
		}
	}
	return nil
}

// validateChatAssistant checks one assistant message and returns its call ids.
func validateChatAssistant(msg object, i int, needReasoning bool, mem *memory) ([]string, *rejection) {
	var ids []string
	switch msg.kind("tool_calls") {
	case kindAbsent, kindNull:
		// Without calls the content is required.
		if rej := checkChatContent(msg, i, false); rej != nil {
			return nil, rej
		}
	default:
		calls, ok := decodeArray(msg["tool_calls"])
		if !ok {
			return nil, badRequest("messages[%d].tool_calls: expected an array", i)
		}
		if len(calls) == 0 {
			return nil, badRequest("messages[%d].tool_calls: empty array; omit it when there are no calls", i)
		}
		if rej := checkChatContent(msg, i, true); rej != nil {
			return nil, rej
		}
		for j, raw := range calls {
			id, rej := validateChatToolCall(raw, i, j)
			if rej != nil {
				return nil, rej
			}
			if slices.Contains(ids, id) {
				return nil, badRequest("messages[%d].tool_calls[%d].id: duplicate id %s", i, j, id)
			}
			ids = append(ids, id)
		}
	}
	switch k := msg.kind("reasoning_content"); k {
	case kindAbsent, kindNull, kindString:
	default:
		return nil, badRequest("messages[%d].reasoning_content: expected a string or null, got %s", i, k)
	}
	if needReasoning {
		text, _ := msg.str("content")
		if want := mem.reasoningFor(ids, text); len(want) > 0 {
			got, ok := msg.str("reasoning_content")
			if !ok {
				return nil, badRequest("Missing `reasoning_content` field in the assistant message at message index %d. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls", i)
			}
			if !slices.Contains(want, got) {
				return nil, badRequest("messages[%d].reasoning_content: differs from the reasoning the model produced for this turn", i)
			}
		}
	}
	return ids, nil
}

func validateChatToolCall(raw json.RawMessage, i, j int) (string, *rejection) {
	call, ok := decodeObject(raw)
	if !ok {
		return "", badRequest("messages[%d].tool_calls[%d]: expected an object", i, j)
	}
	id, ok := call.str("id")
	if !ok || id == "" {
		return "", badRequest("messages[%d].tool_calls[%d].id: missing field `id`", i, j)
	}
	if typ, _ := call.str("type"); typ != "function" {
		return "", badRequest("messages[%d].tool_calls[%d].type: missing or not \"function\"", i, j)
	}
	fn, ok := decodeObject(call["function"])
	if !ok {
		return "", badRequest("messages[%d].tool_calls[%d].function: missing field `function`", i, j)
	}
	if name, ok := fn.str("name"); !ok || name == "" {
		return "", badRequest("messages[%d].tool_calls[%d].function.name: missing field `name`", i, j)
	}
	if k := fn.kind("arguments"); k != kindString {
		return "", badRequest("messages[%d].tool_calls[%d].function.arguments: invalid type: %s, expected a string (the argument JSON text, not an object)", i, j, k)
	}
	return id, nil
}

// checkChatContent checks a message's content: a string or an array of
// parts; null or absent only when nullable (an assistant message with calls).
func checkChatContent(msg object, i int, nullable bool) *rejection {
	switch k := msg.kind("content"); k {
	case kindString:
		return nil
	case kindAbsent, kindNull:
		if nullable {
			return nil
		}
		return badRequest("messages[%d].content: missing or null; required for this message", i)
	case kindArray:
		parts, _ := decodeArray(msg["content"])
		for j, raw := range parts {
			part, ok := decodeObject(raw)
			if !ok {
				return badRequest("messages[%d].content[%d]: expected an object", i, j)
			}
			typ, _ := part.str("type")
			switch typ {
			case "text":
				if part.kind("text") != kindString {
					return badRequest("messages[%d].content[%d].text: expected a string", i, j)
				}
			case "image_url":
			default:
				return badRequest("messages[%d].content[%d].type: unknown variant `%s`", i, j, typ)
			}
		}
		return nil
	default:
		return badRequest("messages[%d].content: expected a string or an array, got %s", i, k)
	}
}
