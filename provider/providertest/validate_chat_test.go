package providertest

import (
	"net/http"
	"testing"
)

func TestChatRejections(t *testing.T) {
	thoughtCall := Turn{Reasoning: "think first", ToolCalls: []Call{{ID: "call_00_prior", Name: "get_weather", Arguments: `{"location":"x"}`}}}
	thoughtText := Turn{Reasoning: "ponder", Text: "Hello there."}
	runRejectCases(t, dialectOpenAI, []rejectCase{
		{name: "not JSON", body: []byte(`{"model":`), want: "deserialize"},
		{name: "missing model", body: without(chatBody(user("hi")), "model"), want: "model"},
		{name: "stream not true", body: with(chatBody(user("hi")), "stream", false), want: "stream"},
		{name: "missing messages", body: without(chatBody(user("hi")), "messages"), want: "missing field `messages`"},
		{name: "empty messages", body: chatBody(), want: "empty array"},
		{name: "max_tokens zero", body: with(chatBody(user("hi")), "max_tokens", 0), want: "max_tokens"},
		{name: "flat tool (rule 4)", body: withTools(chatBody(user("hi")), obj{"type": "function", "name": "get_weather", "parameters": obj{"type": "object"}}), want: "tools[0].function: missing"},
		{name: "tool without type", body: withTools(chatBody(user("hi")), obj{"function": obj{"name": "get_weather"}}), want: "tools[0].type"},
		{name: "tool name with a dot", body: withTools(chatBody(user("hi")), obj{"type": "function", "function": obj{"name": "fs.read"}}), want: "tools[0].function.name"},
		{name: "duplicate tool names", body: withTools(chatBody(user("hi")), chatWeatherTool, chatWeatherTool), want: "duplicate tool name"},
		{name: "parameters not an object", body: withTools(chatBody(user("hi")), obj{"type": "function", "function": obj{"name": "f", "parameters": "{}"}}), want: "parameters: expected an object"},
		{name: "empty tools array", body: withTools(chatBody(user("hi"))), want: "tools: empty array"},
		{name: "tool_choice without tools", body: with(chatBody(user("hi")), "tool_choice", "auto"), want: "tool_choice"},
		{name: "thinking type unknown", body: with(chatBody(user("hi")), "thinking", obj{"type": "on"}), want: "thinking.type"},
		{name: "unknown role", body: chatBody(obj{"role": "developer", "content": "x"}), want: "unknown variant `developer`"},
		{name: "user content null", body: chatBody(obj{"role": "user", "content": nil}), want: "messages[0].content"},
		{name: "assistant without content or calls", body: chatBody(user("hi"), obj{"role": "assistant"}, user("again")), want: "messages[1].content"},
		{name: "empty tool_calls", body: chatBody(user("hi"), obj{"role": "assistant", "content": "x", "tool_calls": []obj{}}, user("again")), want: "tool_calls: empty array"},
		{
			name: "arguments not a string",
			body: chatBody(user("hi"),
				obj{"role": "assistant", "content": nil, "tool_calls": []obj{{"id": "call_1", "type": "function", "function": obj{"name": "f", "arguments": obj{"location": "x"}}}}},
				chatTool("call_1")),
			want: "arguments: invalid type: object",
		},
		{name: "tool message without a preceding call", body: chatBody(user("hi"), chatTool("call_1")), want: "must be a response to a preceding message with 'tool_calls'"},
		{name: "tool_call_id matches no call", body: chatBody(user("hi"), chatAssistantCalls(nil, "call_1"), chatTool("call_2")), want: "call_2 matches no tool call"},
		{name: "tool message after an intervening user message", body: chatBody(user("hi"), chatAssistantCalls(nil, "call_1"), chatTool("call_1"), user("more"), chatTool("call_1")), want: "must be a response to a preceding message"},
		{name: "call answered twice", body: chatBody(user("hi"), chatAssistantCalls(nil, "call_1"), chatTool("call_1"), chatTool("call_1")), want: "answered twice"},
		{name: "call left unanswered", body: chatBody(user("hi"), chatAssistantCalls(nil, "call_1", "call_2"), chatTool("call_1"), user("go on")), want: "did not have response messages: call_2"},
		{name: "call unanswered at the end", body: chatBody(user("hi"), chatAssistantCalls(nil, "call_1")), want: "did not have response messages: call_1"},
		{name: "reasoning_content not a string", body: chatBody(user("hi"), chatAssistantCalls(obj{}, "call_1"), chatTool("call_1")), want: "reasoning_content: expected a string"},
		{
			name:  "reasoning not sent back (rule 6)",
			prior: []Turn{thoughtCall},
			body:  withTools(chatBody(user("hi"), chatAssistantCalls(nil, "call_00_prior"), chatTool("call_00_prior")), chatWeatherTool),
			want:  "Missing `reasoning_content` field in the assistant message at message index 1",
		},
		{
			name:  "reasoning sent back as null",
			prior: []Turn{thoughtCall},
			body:  withTools(chatBody(user("hi"), with(chatAssistantCalls(nil, "call_00_prior"), "reasoning_content", nil), chatTool("call_00_prior")), chatWeatherTool),
			want:  "Missing `reasoning_content`",
		},
		{
			name:  "reasoning sent back altered",
			prior: []Turn{thoughtCall},
			body:  withTools(chatBody(user("hi"), chatAssistantCalls("think later", "call_00_prior"), chatTool("call_00_prior")), chatWeatherTool),
			want:  "differs from the reasoning",
		},
		{
			name:  "reasoning of a text turn not sent back",
			prior: []Turn{thoughtText},
			body:  withTools(chatBody(user("hi"), obj{"role": "assistant", "content": "Hello there."}, user("next")), chatWeatherTool),
			want:  "message index 1",
		},
		{
			name: "missing bearer", opts: []Option{WithAPIKey(testKey)},
			header: func(h http.Header) { h.Del("Authorization") },
			body:   chatBody(user("hi")), status: http.StatusUnauthorized, want: "Authentication Fails",
		},
		{
			name: "wrong bearer", opts: []Option{WithAPIKey(testKey)},
			header: func(h http.Header) { h.Set("Authorization", "Bearer nope") },
			body:   chatBody(user("hi")), status: http.StatusUnauthorized, want: "Authentication Fails",
		},
	})
}

// TestChatAcceptsValidConversations: the strict rules let well-formed
// requests through, including the cases where the real API is lenient.
func TestChatAcceptsValidConversations(t *testing.T) {
	thoughtCall := Turn{Reasoning: "think first", ToolCalls: []Call{{ID: "call_00_prior", Name: "get_weather", Arguments: `{"location":"x"}`}}}
	for _, tc := range []struct {
		name string
		body obj
	}{
		{"reasoning omitted without tools", chatBody(user("hi"), chatAssistantCalls(nil, "call_00_prior"), chatTool("call_00_prior"))},
		{"reasoning omitted with thinking disabled", with(withTools(chatBody(user("hi"), chatAssistantCalls(nil, "call_00_prior"), chatTool("call_00_prior")), chatWeatherTool), "thinking", obj{"type": "disabled"})},
		{"reasoning sent back with tools", withTools(chatBody(user("hi"), chatAssistantCalls("think first", "call_00_prior"), chatTool("call_00_prior")), chatWeatherTool)},
		{"two calls answered in any order", chatBody(user("hi"), chatAssistantCalls(nil, "a", "b"), chatTool("b"), chatTool("a"), obj{"role": "assistant", "content": "done"}, user("ok"))},
		{"content parts", chatBody(obj{"role": "system", "content": []obj{{"type": "text", "text": "be brief"}}}, user([]obj{{"type": "text", "text": "hi"}}))},
		{"foreign assistant turn without reasoning", withTools(chatBody(user("hi"), obj{"role": "assistant", "content": "from elsewhere"}, user("next")), chatWeatherTool)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewServer(t, Script{thoughtCall, {Text: "ok"}}, WithSeed(1))
			if rep := postChat(t, s, chatBody(user("hi"))); rep.status != 200 {
				t.Fatalf("first request: %d %s", rep.status, rep.body)
			}
			if rep := postChat(t, s, tc.body); rep.status != 200 {
				t.Fatalf("refused: %d %s", rep.status, rep.body)
			}
		})
	}
}
