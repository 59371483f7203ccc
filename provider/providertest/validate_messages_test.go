package providertest

import (
	"net/http"
	"testing"
)

func messagesAssistantToolUse(blocks ...obj) obj { return obj{"role": "assistant", "content": blocks} }

func toolUse(id string) obj {
	return obj{"type": "tool_use", "id": id, "name": "get_weather", "input": obj{"location": "x"}}
}

func toolResult(id string) obj {
	return obj{"type": "tool_result", "tool_use_id": id, "content": "sunny"}
}

func text(s string) obj { return obj{"type": "text", "text": s} }

var messagesWeatherTool = obj{"name": "get_weather", "description": "d", "input_schema": obj{"type": "object"}}

func TestMessagesRejections(t *testing.T) {
	thought := Turn{Reasoning: "think first", ToolCalls: []Call{{ID: "toolu_prior", Name: "get_weather", Arguments: `{"location":"x"}`}}}
	thinkingOn := func(body obj) obj { return with(body, "thinking", obj{"type": "enabled", "budget_tokens": 2048}) }
	runRejectCases(t, dialectAnthropic, []rejectCase{
		{name: "not JSON", body: []byte(`[`), want: "parsing the body"},
		{name: "missing model", body: without(messagesBody(user("hi")), "model"), want: "model: Field required"},
		{name: "missing max_tokens", body: without(messagesBody(user("hi")), "max_tokens"), want: "max_tokens: Field required"},
		{name: "max_tokens zero", body: with(messagesBody(user("hi")), "max_tokens", 0), want: "max_tokens: Input should be a valid integer"},
		{name: "max_tokens a string", body: with(messagesBody(user("hi")), "max_tokens", "1024"), want: "max_tokens: Input should be a valid integer"},
		{name: "stream missing", body: without(messagesBody(user("hi")), "stream"), want: "stream"},
		{name: "missing messages", body: without(messagesBody(user("hi")), "messages"), want: "messages: Field required"},
		{name: "empty messages", body: messagesBody(), want: "at least one message"},
		{
			name: "missing anthropic-version", header: func(h http.Header) { h.Del("Anthropic-Version") },
			body: messagesBody(user("hi")), want: "anthropic-version: header is required",
		},
		{
			name:   "Authorization instead of x-api-key",
			header: func(h http.Header) { h.Del("X-Api-Key"); h.Set("Authorization", "Bearer "+testKey) },
			body:   messagesBody(user("hi")), status: http.StatusUnauthorized, want: "x-api-key header is required",
		},
		{
			name: "missing x-api-key", opts: []Option{WithAPIKey(testKey)},
			header: func(h http.Header) { h.Del("X-Api-Key") },
			body:   messagesBody(user("hi")), status: http.StatusUnauthorized, want: "x-api-key header is required",
		},
		{
			name: "wrong x-api-key", opts: []Option{WithAPIKey(testKey)},
			header: func(h http.Header) { h.Set("X-Api-Key", "nope") },
			body:   messagesBody(user("hi")), status: http.StatusUnauthorized, want: "invalid x-api-key",
		},
		{name: "system role in messages", body: messagesBody(obj{"role": "system", "content": "be brief"}, user("hi")), want: `Unexpected role "system"`},
		{name: "system role mid-conversation", body: messagesBody(user("hi"), obj{"role": "assistant", "content": "yo"}, obj{"role": "system", "content": "summary"}), want: `messages.2.role: Unexpected role "system"`},
		{name: "tool role", body: messagesBody(user("hi"), obj{"role": "tool", "content": "x"}), want: "Input should be 'user' or 'assistant'"},
		{name: "starts with assistant", body: messagesBody(obj{"role": "assistant", "content": "yo"}, user("hi")), want: "first message must use the \"user\" role"},
		{name: "two user messages in a row", body: messagesBody(user("hi"), user("again")), want: "roles must alternate"},
		{name: "empty content array", body: messagesBody(user([]obj{})), want: "non-empty content"},
		{name: "empty string content", body: messagesBody(user("")), want: "non-empty content"},
		{name: "empty assistant content mid-conversation", body: messagesBody(user("hi"), obj{"role": "assistant", "content": []obj{}}, user("again")), want: "messages.1: all messages must have non-empty content"},
		{name: "empty text block", body: messagesBody(user([]obj{text("")})), want: "text content blocks must be non-empty"},
		{name: "blank text block", body: messagesBody(user([]obj{text(" \n")})), want: "non-whitespace"},
		{name: "content null", body: messagesBody(obj{"role": "user", "content": nil}), want: "messages.0.content"},
		{name: "system block not text", body: with(messagesBody(user("hi")), "system", []obj{{"type": "image"}}), want: "system.0.type"},
		{
			name: "tool_result without tool_use",
			body: messagesBody(user("hi"), obj{"role": "assistant", "content": "ok"}, user([]obj{toolResult("toolu_x")})),
			want: "unexpected `tool_use_id` found in `tool_result` blocks: toolu_x",
		},
		{
			name: "tool_result answering an older assistant message",
			body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_a")), user([]obj{toolResult("toolu_a")}),
				obj{"role": "assistant", "content": "done"}, user([]obj{toolResult("toolu_a")})),
			want: "messages.4.content.0: unexpected `tool_use_id`",
		},
		{
			name: "tool_use without tool_result",
			body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_a"), toolUse("toolu_b")), user([]obj{toolResult("toolu_a")})),
			want: "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_b",
		},
		{
			name: "tool_use answered by text",
			body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_a")), user("here you go")),
			want: "without `tool_result` blocks immediately after: toolu_a",
		},
		{name: "tool_use last", body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_a"))), want: "toolu_a"},
		{
			name: "tool_use input a string",
			body: messagesBody(user("hi"), messagesAssistantToolUse(with(toolUse("toolu_a"), "input", `{"location":"x"}`)), user([]obj{toolResult("toolu_a")})),
			want: "tool_use.input: Input should be a valid dictionary",
		},
		{
			name: "tool_use id with a dot",
			body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu.a")), user([]obj{toolResult("toolu.a")})),
			want: "id: String should match pattern",
		},
		{
			name: "duplicate tool_use ids",
			body: messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_a"), toolUse("toolu_a")), user([]obj{toolResult("toolu_a")})),
			want: "ids must be unique",
		},
		{name: "tool_result in an assistant message", body: messagesBody(user("hi"), messagesAssistantToolUse(toolResult("toolu_a"))), want: "only allowed in user messages"},
		{name: "tool_use in a user message", body: messagesBody(user([]obj{toolUse("toolu_a")})), want: "only allowed in assistant messages"},
		{name: "unknown block type", body: messagesBody(user([]obj{{"type": "video"}})), want: "unknown content block type"},
		{name: "tool without input_schema", body: withTools(messagesBody(user("hi")), obj{"name": "get_weather"}), want: "input_schema: Field required"},
		{name: "tool without name", body: withTools(messagesBody(user("hi")), obj{"input_schema": obj{"type": "object"}}), want: "tools.0.name"},
		{name: "tool in Chat Completions shape", body: withTools(messagesBody(user("hi")), chatWeatherTool), want: "tools.0"},
		{name: "input_schema not an object schema", body: withTools(messagesBody(user("hi")), obj{"name": "f", "input_schema": obj{"type": "string"}}), want: "input_schema.type"},
		{name: "duplicate tool names", body: withTools(messagesBody(user("hi")), messagesWeatherTool, messagesWeatherTool), want: "Tool names must be unique"},
		{name: "thinking budget not below max_tokens", body: with(messagesBody(user("hi")), "thinking", obj{"type": "enabled", "budget_tokens": 4096}), want: "must be greater than `thinking.budget_tokens`"},
		{name: "thinking type unknown", body: with(messagesBody(user("hi")), "thinking", obj{"type": "on"}), want: "thinking.type"},
		{
			name:  "thinking block dropped before tool_use",
			prior: []Turn{thought},
			body:  thinkingOn(with(messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_prior")), user([]obj{toolResult("toolu_prior")})), "max_tokens", 8192)),
			want:  "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`",
		},
		{
			name:  "thinking block with a forged signature",
			prior: []Turn{thought},
			body: thinkingOn(with(messagesBody(user("hi"),
				messagesAssistantToolUse(obj{"type": "thinking", "thinking": "think first", "signature": "forged"}, toolUse("toolu_prior")),
				user([]obj{toolResult("toolu_prior")})), "max_tokens", 8192)),
			want: "Invalid `signature` in `thinking` block",
		},
		{
			// A turn the server never produced (the other dialect's, or one
			// made with thinking off) cannot continue a tool loop with
			// thinking on either: the real API demands a thinking block of
			// the final assistant message whoever wrote it.
			name: "tool loop of a foreign turn continued with thinking on",
			body: thinkingOn(with(messagesBody(user("hi"), messagesAssistantToolUse(toolUse("toolu_foreign")),
				user([]obj{toolResult("toolu_foreign")})), "max_tokens", 8192)),
			want: "To avoid this requirement, disable `thinking`",
		},
	})
}
