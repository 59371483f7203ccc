package providertest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

const testKey = "sk-test-secret"

// rejectCase is one request the real API refuses.
type rejectCase struct {
	name   string
	prior  []Turn // answered first (by trivial valid requests), so the server remembers them
	opts   []Option
	header func(h http.Header) // adjusts the valid headers
	body   any                 // marshalled; a []byte is sent as is
	status int                 // 0: 400
	want   string              // substring of the recorded reason and of the error message
}

// runRejectCases checks, for each case: the status, an error body shaped like
// the dialect's, the reason recorded in Received.Rejected with Turn -1, and
// that the refused request consumed no turn (the next valid request gets it).
func runRejectCases(t *testing.T, dialect string, cases []rejectCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			script := append(append(Script{}, tc.prior...), Turn{Text: "after"})
			s := NewServer(t, script, append([]Option{WithSeed(1)}, tc.opts...)...)
			url, header := s.OpenAIBaseURL()+"/chat/completions", chatHeader()
			header.Set("Authorization", "Bearer "+testKey)
			valid := chatBody(obj{"role": "user", "content": "hi"})
			if dialect == dialectAnthropic {
				url, header = s.AnthropicBaseURL()+"/v1/messages", messagesHeader()
				header.Set("X-Api-Key", testKey)
				valid = messagesBody(obj{"role": "user", "content": "hi"})
			}
			for range tc.prior {
				if rep := postRaw(t, url, header.Clone(), mustJSON(t, valid)); rep.status != 200 {
					t.Fatalf("prior request refused: %d %s", rep.status, rep.body)
				}
			}
			bad := header.Clone()
			if tc.header != nil {
				tc.header(bad)
			}
			body, ok := tc.body.([]byte)
			if !ok {
				body = mustJSON(t, tc.body)
			}
			rep := postRaw(t, url, bad, body)
			wantStatus := tc.status
			if wantStatus == 0 {
				wantStatus = http.StatusBadRequest
			}
			if rep.status != wantStatus {
				t.Fatalf("status %d, want %d; body %s", rep.status, wantStatus, rep.body)
			}
			message := errorMessage(t, dialect, wantStatus, rep.body)
			if !strings.Contains(message, tc.want) {
				t.Errorf("error message %q does not contain %q", message, tc.want)
			}
			reqs := s.Requests()
			last := reqs[len(reqs)-1]
			if last.Rejected != message || last.Turn != -1 || last.Status != wantStatus || last.Dialect != dialect {
				t.Errorf("recorded %+v", last)
			}
			if got := s.Consumed(); got != len(tc.prior) {
				t.Errorf("refused request consumed a turn: %d consumed, want %d", got, len(tc.prior))
			}
			if rep := postRaw(t, url, header.Clone(), mustJSON(t, valid)); rep.status != 200 {
				t.Fatalf("valid request after the refusal: %d %s", rep.status, rep.body)
			}
			if reqs := s.Requests(); reqs[len(reqs)-1].Turn != len(tc.prior) {
				t.Errorf("the turn after the refusal is %d, want %d", reqs[len(reqs)-1].Turn, len(tc.prior))
			}
		})
	}
}

// errorMessage checks the shape of an error body and returns its message.
func errorMessage(t *testing.T, dialect string, status int, body []byte) string {
	t.Helper()
	var e struct {
		Type  string `json:"type"`
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	var wantType string
	if dialect == dialectAnthropic {
		if e.Type != "error" {
			t.Errorf("Messages error body without type:error: %s", body)
		}
		wantType = messagesErrorType(status)
	} else {
		wantType = chatErrorType(status)
	}
	if e.Error.Type != wantType || e.Error.Message == "" {
		t.Errorf("error body %s: want error.type %q and a message", body, wantType)
	}
	return e.Error.Message
}

// Shorthands for conversation pieces.

func user(content any) obj { return obj{"role": "user", "content": content} }

func chatAssistantCalls(reasoning any, ids ...string) obj {
	var calls []obj
	for _, id := range ids {
		calls = append(calls, obj{"id": id, "type": "function", "function": obj{"name": "get_weather", "arguments": `{"location":"x"}`}})
	}
	m := obj{"role": "assistant", "content": nil, "tool_calls": calls}
	if reasoning != nil {
		m["reasoning_content"] = reasoning
	}
	return m
}

func chatTool(id string) obj { return obj{"role": "tool", "tool_call_id": id, "content": "sunny"} }

var chatWeatherTool = obj{"type": "function", "function": obj{"name": "get_weather", "description": "d", "parameters": obj{"type": "object"}}}

func withTools(body obj, tools ...any) obj {
	if tools == nil {
		tools = []any{}
	}
	body["tools"] = tools
	return body
}

func without(body obj, key string) obj { delete(body, key); return body }

func with(body obj, key string, v any) obj { body[key] = v; return body }
