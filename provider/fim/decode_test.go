package fim

import (
	"errors"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

func decodeAll(t *testing.T, a answer, stream string) (string, []provider.Event, error) {
	t.Helper()
	var text strings.Builder
	var events []provider.Event
	err := provider.DecodeSSE(strings.NewReader(stream), &decoder{answer: a}, nil, func(e provider.Event) {
		events = append(events, e)
		if e.Type == provider.EventText {
			text.WriteString(e.Text)
		}
	})
	return text.String(), events, err
}

func TestDecoderEdges(t *testing.T) {
	tests := []struct {
		name   string
		answer answer
		stream string
		text   string
		stop   provider.StopReason
		usage  provider.Usage
		err    string
	}{
		{"finish without usage, then [DONE]", answerCompletions,
			"data: {\"choices\":[{\"text\":\"ab\",\"index\":0,\"finish_reason\":null}]}\n\n" +
				"data: {\"choices\":[{\"text\":\"\",\"index\":0,\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n",
			"ab", provider.StopMaxTokens, provider.Usage{}, ""},
		{"finish and no [DONE]", answerChatDelta,
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n",
			"x", provider.StopEndTurn, provider.Usage{}, ""},
		{"usage after the finish", answerCompletions,
			"data: {\"choices\":[{\"text\":\"x\",\"index\":0,\"finish_reason\":\"stop\"}]}\n\n" +
				"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1}}\n\n",
			"x", provider.StopEndTurn, provider.Usage{PromptTokens: 4, CompletionTokens: 1}, ""},
		{"[DONE] without a finish", answerCompletions,
			"data: {\"choices\":[{\"text\":\"x\",\"index\":0,\"finish_reason\":null}]}\n\ndata: [DONE]\n\n",
			"x", "", provider.Usage{}, "without a finish"},
		{"llama.cpp limit", answerInfill,
			"data: {\"content\":\"a\",\"stop\":false}\n\ndata: {\"content\":\"\",\"stop\":true,\"stop_type\":\"limit\",\"tokens_evaluated\":9,\"tokens_predicted\":1}\n\n",
			"a", provider.StopMaxTokens, provider.Usage{PromptTokens: 9, CompletionTokens: 1}, ""},
		{"llama.cpp in-stream error", answerInfill,
			"data: {\"error\":{\"code\":500,\"message\":\"slot unavailable\",\"type\":\"server_error\"}}\n\n",
			"", "", provider.Usage{}, "server_error: slot unavailable"},
		{"ollama string error", answerGenerate, "data: {\"error\":\"model not found\"}\n\n",
			"", "", provider.Usage{}, "model not found"},
		{"ollama done", answerGenerate,
			"data: {\"response\":\"r\",\"done\":false}\n\ndata: {\"response\":\"\",\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":3,\"eval_count\":2}\n\n",
			"r", provider.StopEndTurn, provider.Usage{PromptTokens: 3, CompletionTokens: 2}, ""},
		{"not JSON", answerGenerate, "data: {nope\n\n", "", "", provider.Usage{}, "malformed frame"},
	}
	for _, tc := range tests {
		text, events, err := decodeAll(t, tc.answer, tc.stream)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		last := events[len(events)-1]
		if text != tc.text || last.Type != provider.EventDone || last.StopReason != tc.stop || last.Usage != tc.usage {
			t.Errorf("%s: text %q, last %+v; want %q, %s, %+v", tc.name, text, last, tc.text, tc.stop, tc.usage)
		}
	}
	_, _, err := decodeAll(t, answerInfill, "data: {\"content\":\"a\",\"stop\":false}\n\n")
	if !errors.Is(err, provider.ErrNoFinish) {
		t.Errorf("a stream cut short: %v, want ErrNoFinish (retryable before the first delta)", err)
	}
}

func TestErrorMessage(t *testing.T) {
	tests := map[string]string{
		`{"error":{"message":"Prompt is too long","type":"invalid_request_error"}}`:                               "Prompt is too long",
		`{"error":{"code":400,"message":"bad chunk","type":"invalid_request_error"}}`:                             "bad chunk",
		`{"error":"raw mode does not support suffix"}`:                                                            "raw mode does not support suffix",
		`{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","foo"],"msg":"Extra"}]}}`: "body.foo: Extra",
		`{"message":"Unauthorized","request_id":"x"}`:                                                             "Unauthorized",
		`not JSON…`: "",
	}
	for body, want := range tests {
		if got := errorMessage(body); got != want {
			t.Errorf("errorMessage(%s) = %q, want %q", body, got, want)
		}
	}
}
