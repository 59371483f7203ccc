package anthropic

import (
	"net/http"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// unsignedLoop is a tool loop whose reasoning came without a signature.
func unsignedLoop() provider.Request {
	return provider.Request{Model: "m", MaxTokens: 4096, Thinking: provider.Thinking{Enabled: true},
		Messages: []provider.Message{
			{Role: provider.RoleUser, Text: "go"},
			{Role: provider.RoleAssistant, Reasoning: "plan", ToolCalls: []provider.ToolCall{{ID: "toolu_1", Name: "read", Arguments: "{}"}}},
			{Role: provider.RoleTool, ToolCallID: "toolu_1", Text: "text"},
		}}
}

// A server that signs (Anthropic, DeepSeek, an unknown one) gets
// Anthropic's rule: the unsigned reasoning is dropped and thinking is off
// for the loop. llama.cpp, named by the configuration or by its Server
// header, gets the reasoning back and thinking on; a header never
// overrides a kind the configuration named.
func TestUnsignedThinkingKeyedOnServerKind(t *testing.T) {
	llama := http.Header{"Server": {"llama.cpp"}}
	for _, c := range []struct {
		name   string
		kind   string
		header http.Header
		keeps  bool
	}{
		{"anthropic", provider.KindAnthropic, nil, false},
		{"anthropic named, llama.cpp header", provider.KindAnthropic, llama, false},
		{"generic", provider.KindGeneric, nil, false},
		{"generic answered by llama.cpp", provider.KindGeneric, llama, true},
		{"llamacpp", provider.KindLlamaCpp, nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := provider.FlavourOf(c.kind)
			d := NewDialect(WithFlavour(f))
			if c.header != nil {
				d.(provider.ServerAware).ServerAnswered(c.header)
			}
			body, err := d.Encode(unsignedLoop())
			if err != nil {
				t.Fatal(err)
			}
			kept := strings.Contains(string(body), `"type":"thinking","thinking":"plan"`)
			on := strings.Contains(string(body), `"thinking":{"type":"enabled"`)
			if kept != c.keeps || on != c.keeps {
				t.Errorf("reasoning kept %v, thinking on %v; want %v: %s", kept, on, c.keeps, body)
			}
		})
	}
}
