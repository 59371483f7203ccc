package provider

import (
	"errors"
	"fmt"
	"testing"
)

func TestContextOverflowOf(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
		want       ContextOverflow
		ok         bool
	}{
		{"llama.cpp", `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":12662,"n_ctx":4096}}`, 400, ContextOverflow{Limit: 4096, Requested: 12662}, true},
		{"openai", `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, 400, ContextOverflow{Limit: 128000, Requested: 130512}, true},
		{"vllm", `{"object":"error","message":"This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`, 400, ContextOverflow{Limit: 4096, Requested: 5120}, true},
		{"anthropic", `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}`, 400, ContextOverflow{Limit: 200000, Requested: 208310}, true},
		{"code only", `{"error":{"code":"context_length_exceeded","message":"too long"}}`, 400, ContextOverflow{}, true},
		{"another 400", `{"error":{"message":"invalid tool schema"}}`, 400, ContextOverflow{}, false},
		{"server error", `maximum context length is 4096 tokens`, 500, ContextOverflow{}, false},
	} {
		err := fmt.Errorf("round 2: %w", &HTTPError{Status: tc.status, Body: tc.body})
		got, ok := ContextOverflowOf(err)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := ContextOverflowOf(errors.New("maximum context length is 4096 tokens")); ok {
		t.Error("a plain error was taken for a server's answer")
	}
}
