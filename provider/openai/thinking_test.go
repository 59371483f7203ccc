package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// thinkingFields is the part of the body that carries the switches.
type thinkingFields struct {
	Thinking           *struct{ Type string } `json:"thinking"`
	ReasoningEffort    *string                `json:"reasoning_effort"`
	ChatTemplateKwargs *struct {
		EnableThinking *bool `json:"enable_thinking"`
	} `json:"chat_template_kwargs"`
	Reasoning *struct {
		Effort  string `json:"effort"`
		Enabled *bool  `json:"enabled"`
	} `json:"reasoning"`
}

// summary renders the switches a body carries, one word each.
func (f thinkingFields) summary() string {
	s := ""
	add := func(v string) {
		if s != "" {
			s += " "
		}
		s += v
	}
	if f.Thinking != nil {
		add("thinking=" + f.Thinking.Type)
	}
	if f.ReasoningEffort != nil {
		add("effort=" + *f.ReasoningEffort)
	}
	if f.ChatTemplateKwargs != nil && f.ChatTemplateKwargs.EnableThinking != nil {
		add(map[bool]string{true: "template=on", false: "template=off"}[*f.ChatTemplateKwargs.EnableThinking])
	}
	if r := f.Reasoning; r != nil {
		if r.Effort != "" {
			add("reasoning.effort=" + r.Effort)
		}
		if r.Enabled != nil {
			add(map[bool]string{true: "reasoning.enabled", false: "reasoning.disabled"}[*r.Enabled])
		}
	}
	return s
}

func encodeFor(t *testing.T, kind string, th provider.Thinking) []byte {
	t.Helper()
	f, ok := provider.FlavourOf(kind)
	if !ok {
		t.Fatalf("no flavour %q", kind)
	}
	body, err := openai.NewDialect(openai.WithFlavour(f)).Encode(provider.Request{Model: "m",
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}, Thinking: th})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// Per server kind, the body carries exactly the switches that server reads,
// through the real encoder; and the fake, reading it as that server does,
// understands thinking on or off as asked and refuses nothing.
func TestThinkingSwitchPerServerKind(t *testing.T) {
	off := provider.Thinking{}
	high := provider.Thinking{Enabled: true, Effort: "high"}
	maxed := provider.Thinking{Enabled: true, Effort: "max"}
	cases := []struct {
		kind          string
		th            provider.Thinking
		want          string
		serverReadsIt bool // false: the server has no off switch (OpenAI decides by model)
	}{
		{"deepseek", off, "thinking=disabled", true},
		{"deepseek", high, "thinking=enabled effort=high", true},
		{"deepseek", maxed, "thinking=enabled effort=max", true},
		{"openai", off, "", false},
		{"openai", high, "", false},
		{"openrouter", off, "reasoning.disabled", true},
		{"openrouter", high, "reasoning.effort=high", true},
		{"openrouter", maxed, "reasoning.effort=high", true},
		{"openrouter", provider.Thinking{Enabled: true}, "reasoning.enabled", true},
		{"llamacpp", off, "effort=none template=off", true},
		{"llamacpp", high, "effort=high template=on", true},
		{"llamacpp", maxed, "effort=high template=on", true},
		{"vllm", off, "template=off", true},
		{"vllm", high, "template=on", true},
		{"ollama", off, "effort=none", true},
		{"ollama", high, "effort=high", true},
		{"ollama", provider.Thinking{Enabled: true, Effort: "low"}, "effort=low", true},
		{"lmstudio", off, "effort=none template=off", true},
		{"lmstudio", maxed, "effort=high template=on", true},
		{"generic", off, "effort=none template=off", true},
		{"generic", provider.Thinking{Enabled: true}, "template=on", true},
	}
	for _, c := range cases {
		body := encodeFor(t, c.kind, c.th)
		var f thinkingFields
		if err := json.Unmarshal(body, &f); err != nil {
			t.Fatal(err)
		}
		if got := f.summary(); got != c.want {
			t.Errorf("%s %+v: switches %q, want %q\n%s", c.kind, c.th, got, c.want, body)
		}
		if c.kind == "generic" {
			continue // no one real server: the fake's default reading is tried below
		}
		read, err := providertest.ReadThinking("openai", c.kind, body)
		if err != nil {
			t.Errorf("%s %+v: the server refuses the body: %v", c.kind, c.th, err)
			continue
		}
		if c.serverReadsIt && read.Off == c.th.Enabled {
			t.Errorf("%s %+v: the server reads thinking off=%v", c.kind, c.th, read.Off)
		}
	}
}

// The bugs of the issue, as the fake servers see them: DeepSeek's switch
// leaves a llama.cpp server thinking, and OpenAI refuses it outright.
func TestDeepSeekSwitchIsNotEveryServersSwitch(t *testing.T) {
	body := encodeFor(t, "deepseek", provider.Thinking{})
	read, err := providertest.ReadThinking("openai", "llamacpp", body)
	if err != nil || read.Off {
		t.Fatalf("llama.cpp reading DeepSeek's off switch: %+v, %v; want thinking still on", read, err)
	}
	if _, err := providertest.ReadThinking("openai", "openai", body); err == nil {
		t.Fatal("OpenAI accepted DeepSeek's thinking field")
	}
	if _, err := providertest.ReadThinking("openai", "openai", encodeFor(t, "llamacpp", provider.Thinking{})); err == nil {
		t.Fatal("OpenAI accepted chat_template_kwargs")
	}
}

// OpenAI: reasoning_effort goes to its reasoning models only ("max"
// becomes its highest, "high"); gpt-4.1 would answer 400 to it, and the
// strict fake does.
func TestOpenAIEffortOnlyForReasoningModels(t *testing.T) {
	f, _ := provider.FlavourOf("openai")
	d := openai.NewDialect(openai.WithFlavour(f))
	for _, c := range []struct {
		model string
		th    provider.Thinking
		want  string
	}{
		{"o3", provider.Thinking{Enabled: true, Effort: "max"}, "effort=high"},
		{"gpt-5", provider.Thinking{Enabled: true, Effort: "low"}, "effort=low"},
		{"gpt-5", provider.Thinking{}, ""},
		{"gpt-4.1", provider.Thinking{Enabled: true, Effort: "high"}, ""},
	} {
		body, err := d.Encode(provider.Request{Model: c.model, Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}}, Thinking: c.th})
		if err != nil {
			t.Fatal(err)
		}
		var got thinkingFields
		if err := json.Unmarshal(body, &got); err != nil {
			t.Fatal(err)
		}
		if got.summary() != c.want {
			t.Errorf("%s %+v: %q, want %q", c.model, c.th, got.summary(), c.want)
		}
		if _, err := providertest.ReadThinking("openai", "openai", body); err != nil {
			t.Errorf("%s %+v: refused: %v", c.model, c.th, err)
		}
	}
	deepSeekStyle := []byte(`{"model":"gpt-4.1","stream":true,"messages":[],"reasoning_effort":"high"}`)
	if _, err := providertest.ReadThinking("openai", "openai", deepSeekStyle); err == nil {
		t.Error("the fake OpenAI took reasoning_effort for gpt-4.1")
	}
}
