package providertest

import (
	"encoding/json"
	"strings"
	"testing"
)

// These tests play a well-behaved client: they reassemble each streamed turn
// (generated ids, signatures and all) and send it back, and the strict server
// must accept the conversation for the whole length of a tool loop.

// chatTurnFromStream rebuilds the assistant message of a Chat Completions answer.
func chatTurnFromStream(t *testing.T, frames []frame) (msg obj, callIDs []string) {
	t.Helper()
	var reasoning, content strings.Builder
	var calls []obj
	var args []*strings.Builder
	for _, c := range decodeFrames(t, frames) {
		delta, _ := path(c, "choices", 0, "delta").(map[string]any)
		if r, ok := delta["reasoning_content"].(string); ok {
			reasoning.WriteString(r)
		}
		if s, ok := delta["content"].(string); ok {
			content.WriteString(s)
		}
		for _, raw := range asSlice(delta["tool_calls"]) {
			tc := raw.(map[string]any)
			i := int(tc["index"].(float64))
			if i == len(calls) {
				calls = append(calls, obj{"id": tc["id"], "type": "function", "function": obj{"name": path(tc, "function", "name")}})
				args = append(args, &strings.Builder{})
				callIDs = append(callIDs, tc["id"].(string))
			}
			args[i].WriteString(path(tc, "function", "arguments").(string))
		}
	}
	msg = obj{"role": "assistant", "content": content.String()}
	if len(calls) > 0 {
		for i, c := range calls {
			c["function"].(obj)["arguments"] = args[i].String()
		}
		msg["tool_calls"] = calls
		if content.Len() == 0 {
			msg["content"] = nil
		}
	}
	if reasoning.Len() > 0 {
		msg["reasoning_content"] = reasoning.String()
	}
	return msg, callIDs
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func TestChatToolLoopRoundTrip(t *testing.T) {
	s := NewServer(t, Script{
		{Reasoning: "Need both cities.", ToolCalls: []Call{{Name: "get_weather", Arguments: `{"location":"杭州"}`}, {Name: "get_weather", Arguments: `{"location":"北京"}`}}},
		{Reasoning: "One more look.", Text: "Checking again.", ToolCalls: []Call{{Name: "get_weather", Arguments: `{"location":"上海"}`}}},
		{Reasoning: "All done.", Text: "Sunny everywhere."},
		{Text: "You're welcome."},
	})
	history := []obj{{"role": "system", "content": "be brief"}, user("weather?")}
	for turn := 0; turn < 3; turn++ {
		rep := postChat(t, s, withTools(chatBody(history...), chatWeatherTool))
		if rep.status != 200 {
			t.Fatalf("turn %d refused: %s", turn, rep.body)
		}
		msg, ids := chatTurnFromStream(t, rep.frames)
		history = append(history, msg)
		for _, id := range ids {
			history = append(history, chatTool(id))
		}
	}
	history = append(history, user("thanks"))
	if rep := postChat(t, s, withTools(chatBody(history...), chatWeatherTool)); rep.status != 200 {
		t.Fatalf("final turn refused: %s", rep.body)
	}
	// Dropping any reasoning from the history is what DeepSeek refuses.
	for i, m := range history {
		if _, has := m["reasoning_content"]; !has {
			continue
		}
		broken := append([]obj(nil), history...)
		stripped := obj{}
		for k, v := range m {
			if k != "reasoning_content" {
				stripped[k] = v
			}
		}
		broken[i] = stripped
		s.Append(Turn{Text: "unused"})
		if rep := postChat(t, s, withTools(chatBody(broken...), chatWeatherTool)); rep.status != 400 {
			t.Errorf("history without the reasoning of message %d accepted", i)
		}
	}
}

// messagesTurnFromStream rebuilds the assistant message of a Messages answer.
func messagesTurnFromStream(t *testing.T, frames []frame) (msg obj, toolUseIDs []string) {
	t.Helper()
	var blocks []obj
	var partial []*strings.Builder
	for _, e := range decodeFrames(t, frames) {
		switch e["type"] {
		case "content_block_start":
			cb := e["content_block"].(map[string]any)
			b := obj{}
			for k, v := range cb {
				b[k] = v
			}
			blocks = append(blocks, b)
			partial = append(partial, &strings.Builder{})
			if cb["type"] == "tool_use" {
				toolUseIDs = append(toolUseIDs, cb["id"].(string))
			}
		case "content_block_delta":
			i := int(e["index"].(float64))
			d := e["delta"].(map[string]any)
			switch d["type"] {
			case "thinking_delta":
				blocks[i]["thinking"] = blocks[i]["thinking"].(string) + d["thinking"].(string)
			case "signature_delta":
				blocks[i]["signature"] = d["signature"]
			case "text_delta":
				blocks[i]["text"] = blocks[i]["text"].(string) + d["text"].(string)
			case "input_json_delta":
				partial[i].WriteString(d["partial_json"].(string))
			}
		}
	}
	for i, b := range blocks {
		if b["type"] == "tool_use" {
			var input map[string]any
			if err := json.Unmarshal([]byte(partial[i].String()), &input); err != nil {
				t.Fatalf("tool_use input %q: %v", partial[i].String(), err)
			}
			b["input"] = input
		}
	}
	return obj{"role": "assistant", "content": blocks}, toolUseIDs
}

func TestMessagesToolLoopRoundTrip(t *testing.T) {
	s := NewServer(t, Script{
		{Reasoning: "Need both cities.", ToolCalls: []Call{{Name: "get_weather", Arguments: `{"location":"杭州"}`}, {Name: "get_weather", Arguments: `{"location":"北京"}`}}},
		{Reasoning: "One more.", Text: "Checking again.", ToolCalls: []Call{{Name: "get_weather", Arguments: `{"location":"上海"}`}}},
		{Reasoning: "Done.", Text: "Sunny everywhere."},
	})
	body := func(history []obj) obj {
		b := withTools(messagesBody(history...), messagesWeatherTool)
		b["system"] = "be brief"
		b["max_tokens"] = 8192
		b["thinking"] = obj{"type": "enabled", "budget_tokens": 2048}
		return b
	}
	history := []obj{user("weather?")}
	var lastToolTurn obj
	for turn := 0; turn < 3; turn++ {
		rep := postMessages(t, s, body(history))
		if rep.status != 200 {
			t.Fatalf("turn %d refused: %s", turn, rep.body)
		}
		msg, ids := messagesTurnFromStream(t, rep.frames)
		history = append(history, msg)
		if len(ids) == 0 {
			break
		}
		lastToolTurn = msg
		var results []obj
		for _, id := range ids {
			results = append(results, toolResult(id))
		}
		history = append(history, user(results))
	}
	if got := len(s.Requests()); got != 3 {
		t.Fatalf("%d requests", got)
	}
	// Without its thinking block, the tool turn is refused while thinking is
	// on, and accepted once thinking is off.
	blocks := lastToolTurn["content"].([]obj)
	lastToolTurn["content"] = blocks[1:]
	s.Append(Turn{Text: "unused"})
	if rep := postMessages(t, s, body(history)); rep.status != 400 || !strings.Contains(string(rep.body), "Expected `thinking`") {
		t.Errorf("tool turn without its thinking block: %d %s", rep.status, rep.body)
	}
	off := body(history)
	off["thinking"] = obj{"type": "disabled"}
	if rep := postMessages(t, s, off); rep.status != 200 {
		t.Errorf("thinking disabled, thinking block omitted: %d %s", rep.status, rep.body)
	}
}
