package control_test

import (
	"context"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A free preset makes its calls cost $0; the word stays while the switch
// keeps the endpoint (another model of the same local server) and goes
// with a different endpoint: that model, unknown to the table, has an
// unknown cost. A free preset lists prices 0; a preset of an unknown
// model lists none.
func TestSetModelFreePreset(t *testing.T) {
	usage := provider.Usage{PromptTokens: 1_000_000}
	srv := providertest.NewServer(t, providertest.Script{{Text: "a", Usage: usage}, {Text: "b", Usage: usage}, {Text: "c", Usage: usage}},
		providertest.WithSeed(7))
	local := control.Preset{Preset: provider.Preset{ID: "local", Provider: "openai", Model: "qwen3-local",
		BaseURL: srv.OpenAIBaseURL(), APIKeyEnv: "none", Free: true}}
	unpriced := control.Preset{Preset: provider.Preset{ID: "unpriced", Provider: "openai", Model: "qwen3-local",
		BaseURL: srv.OpenAIBaseURL(), APIKeyEnv: "none"}}
	f := newFixture(t, nil, fixtureOptions{model: srv, presets: []control.Preset{local, unpriced}})
	for _, p := range f.ctl.Presets() {
		switch p.ID {
		case "local":
			if p.Prices == nil || *p.Prices != (control.Prices{}) {
				t.Errorf("free preset's prices = %+v, want 0", p.Prices)
			}
		case "unpriced":
			if p.Prices != nil {
				t.Errorf("unknown model's preset has prices %+v", *p.Prices)
			}
		}
	}
	s := f.newSession("")

	roundCost := func(ch control.ModelChoice) agent.Event {
		t.Helper()
		if _, err := s.SetModel(ch); err != nil {
			t.Fatal(err)
		}
		var end agent.Event
		l := agent.ListenerFunc(func(e agent.Event) {
			if e.Kind == agent.EventRoundEnd {
				end = e
			}
		})
		if _, err := s.Prompt(context.Background(), control.PromptInput{Text: "hi"}, l); err != nil {
			t.Fatal(err)
		}
		return end
	}
	if e := roundCost(control.ModelChoice{Preset: "local"}); e.Kind == "" || e.CostUnknown || e.Cost != 0 {
		t.Errorf("free preset: %+v, want a known $0", e)
	}
	if e := roundCost(control.ModelChoice{Model: "qwen3-other"}); e.Kind == "" || e.CostUnknown || e.Cost != 0 {
		t.Errorf("another model of the free server: %+v, want a known $0", e)
	}
	other := srv.OpenAIBaseURL() + "/"
	if e := roundCost(control.ModelChoice{Model: "qwen3-other", BaseURL: &other}); e.Kind == "" || !e.CostUnknown {
		t.Errorf("an unknown model elsewhere: %+v, want an unknown cost", e)
	}
}
