package anthropic_test

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Per server kind, the Messages body carries the thinking block where the
// server reads it and llama.cpp's template switch where that is read, and
// the fake reading it as that server does sees thinking on or off as asked.
func TestMessagesThinkingSwitchPerServerKind(t *testing.T) {
	type fields struct {
		Thinking *struct {
			Type         string `json:"type"`
			BudgetTokens int    `json:"budget_tokens"`
		} `json:"thinking"`
		ChatTemplateKwargs *struct {
			EnableThinking bool `json:"enable_thinking"`
		} `json:"chat_template_kwargs"`
	}
	cases := []struct {
		kind          string
		block, kwargs bool
	}{
		{"anthropic", true, false},
		{"deepseek", true, false},
		{"llamacpp", true, true},
		{"vllm", true, true},
		{"ollama", true, false},
		{"openai", false, false},
	}
	for _, c := range cases {
		for _, on := range []bool{false, true} {
			f, _ := provider.FlavourOf(c.kind)
			body, err := anthropic.NewDialect(anthropic.WithFlavour(f)).Encode(provider.Request{Model: "m", MaxTokens: 16000,
				Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
				Thinking: provider.Thinking{Enabled: on, Effort: "low"}})
			if err != nil {
				t.Fatal(err)
			}
			var got fields
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatal(err)
			}
			if (got.Thinking != nil) != c.block || (got.ChatTemplateKwargs != nil) != c.kwargs {
				t.Errorf("%s on=%v: block=%v kwargs=%v, want %v %v\n%s", c.kind, on,
					got.Thinking != nil, got.ChatTemplateKwargs != nil, c.block, c.kwargs, body)
				continue
			}
			if got.Thinking != nil && (got.Thinking.Type == "enabled") != on {
				t.Errorf("%s on=%v: thinking block %+v", c.kind, on, *got.Thinking)
			}
			if got.ChatTemplateKwargs != nil && got.ChatTemplateKwargs.EnableThinking != on {
				t.Errorf("%s on=%v: enable_thinking=%v", c.kind, on, got.ChatTemplateKwargs.EnableThinking)
			}
			if c.kind == "openai" {
				continue // not a Messages server
			}
			read, err := providertest.ReadThinking("anthropic", c.kind, body)
			if err != nil {
				t.Errorf("%s on=%v: refused: %v", c.kind, on, err)
			} else if read.Off == on {
				t.Errorf("%s on=%v: the server reads off=%v", c.kind, on, read.Off)
			}
		}
	}
}

// Anthropic's API refuses llama.cpp's switch, and llama.cpp's Messages
// endpoint does not read the thinking block: each gets only its own.
func TestMessagesForeignSwitches(t *testing.T) {
	lf, _ := provider.FlavourOf("llamacpp")
	req := provider.Request{Model: "m", MaxTokens: 16000, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}}
	body, err := anthropic.NewDialect(anthropic.WithFlavour(lf)).Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := providertest.ReadThinking("anthropic", "anthropic", body); err == nil {
		t.Error("Anthropic accepted chat_template_kwargs")
	}
	plain, err := anthropic.NewDialect().Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	if read, err := providertest.ReadThinking("anthropic", "llamacpp", plain); err != nil || read.Off {
		t.Errorf("llama.cpp reading only the thinking block: %+v, %v; want thinking still on", read, err)
	}
}
