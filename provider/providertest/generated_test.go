package providertest

import (
	"strings"
	"testing"
)

// Generated text follows Text in the same text, delta by delta, with the
// calls and the finish after it, in both dialects.
func TestGeneratedTextFollowsText(t *testing.T) {
	const size = 10_000
	want := "Start. " + strings.Repeat(loremIpsum, size/len(loremIpsum)+1)[:size]
	turn := Turn{Text: "Start. ", Generated: &GeneratedText{Bytes: size, Delta: 300},
		ToolCalls: []Call{{Name: "get_weather", Arguments: `{"location":"Rome"}`}}}

	t.Run("chat", func(t *testing.T) {
		s := NewServer(t, Script{turn})
		rep := postChat(t, s, withTools(chatBody(user("weather?")), chatWeatherTool))
		if rep.status != 200 {
			t.Fatalf("refused: %s", rep.body)
		}
		msg, ids := chatTurnFromStream(t, rep.frames)
		if msg["content"] != want || len(ids) != 1 {
			t.Errorf("content %d bytes (want %d), calls %v", len(msg["content"].(string)), len(want), ids)
		}
	})
	t.Run("messages", func(t *testing.T) {
		s := NewServer(t, Script{turn})
		b := withTools(messagesBody(user("weather?")), messagesWeatherTool)
		b["max_tokens"] = 1024
		rep := postMessages(t, s, b)
		if rep.status != 200 {
			t.Fatalf("refused: %s", rep.body)
		}
		msg, ids := messagesTurnFromStream(t, rep.frames)
		var text string
		for _, b := range msg["content"].([]obj) {
			if b["type"] == "text" {
				text += b["text"].(string)
			}
		}
		if text != want || len(ids) != 1 {
			t.Errorf("text %d bytes (want %d), calls %v", len(text), len(want), ids)
		}
	})
}
