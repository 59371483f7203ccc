package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// costOnWire is what a round_end update says of cost, read from its JSON
// so that a missing field is told from a 0.
type costOnWire struct {
	Kind      string           `json:"kind"`
	Cost      *float64         `json:"cost"`
	CostKnown *bool            `json:"costKnown"`
	Totals    map[string]any   `json:"totals"`
	Raw       *json.RawMessage `json:"-"` // the whole update, for the failure message
}

func roundEnds(t *testing.T, s *setup) []costOnWire {
	t.Helper()
	var out []costOnWire
	for _, n := range s.ed.Notifications("agent/update") {
		var u costOnWire
		if err := json.Unmarshal(n.Params, &u); err != nil {
			t.Fatalf("agent/update %s: %v", n.Params, err)
		}
		if u.Kind == "round_end" {
			raw := n.Params
			u.Raw = &raw
			out = append(out, u)
		}
	}
	return out
}

// A model the price table does not know has an unknown cost on the wire:
// round_end carries no cost (not $0, not deepseek-flash's price) and
// costKnown false, in the totals too. Switched to a preset of the user's
// marked free, the next round costs a known $0, while the totals stay
// unknown (the first call has no price).
func TestCostUnknownForAnUnknownModelFreeForAFreePreset(t *testing.T) {
	u := provider.Usage{PromptTokens: 3000, CompletionTokens: 20, CachedTokens: 1000}
	script := providertest.Script{{Text: "one", Usage: u}, {Text: "two", Usage: u}}
	s := start(t, script, setupOptions{caps: fullCaps})
	s.initialize(map[string]any{"model": "qwen3-local", "models": []map[string]any{
		{"id": "local", "provider": "openai", "model": "qwen3-local", "baseURL": s.model.OpenAIBaseURL(),
			"apiKeyEnv": "none", "free": true},
	}})
	id := s.prompt(map[string]any{"prompt": "hi"}).SessionID
	ends := roundEnds(t, s)
	if len(ends) != 1 {
		t.Fatalf("round_end updates: %d", len(ends))
	}
	e := ends[0]
	if e.Cost != nil || e.CostKnown == nil || *e.CostKnown || e.Totals["cost"] != nil || e.Totals["costKnown"] != false {
		t.Fatalf("unknown model's round_end = %s; want no cost and costKnown false", *e.Raw)
	}

	var cur struct{ Model string }
	s.call("agent/setModel", map[string]any{"sessionId": id, "preset": "local"}, &cur)
	s.prompt(map[string]any{"sessionId": id, "prompt": "again"})
	ends = roundEnds(t, s)
	if len(ends) != 2 {
		t.Fatalf("round_end updates: %d", len(ends))
	}
	e = ends[1]
	if e.Cost == nil || *e.Cost != 0 || e.CostKnown == nil || !*e.CostKnown || e.Totals["cost"] != nil || e.Totals["costKnown"] != false {
		t.Fatalf("free preset's round_end = %s; want cost 0, costKnown, and unknown totals", *e.Raw)
	}
}

// The built-in ollama preset is free: agent/models lists its prices as 0.
// The configured model with "free": true costs a known $0 from the first
// round.
func TestFreeConfiguredModelAndOllamaPreset(t *testing.T) {
	script := providertest.Script{{Text: "one", Usage: provider.Usage{PromptTokens: 3000, CompletionTokens: 20}}}
	s := start(t, script, setupOptions{caps: fullCaps})
	s.initialize(map[string]any{"model": "qwen3-local", "free": true})
	id := s.prompt(map[string]any{"prompt": "hi"}).SessionID
	ends := roundEnds(t, s)
	if len(ends) != 1 || ends[0].Cost == nil || *ends[0].Cost != 0 || !*ends[0].CostKnown ||
		ends[0].Totals["cost"] != 0.0 || ends[0].Totals["costKnown"] != true {
		t.Fatalf("free model's round_end = %+v", ends)
	}
	var models struct {
		Models []struct {
			ID     string `json:"id"`
			Free   bool   `json:"free"`
			Prices *struct {
				Input, CachedInput, Output float64
			} `json:"prices"`
		} `json:"models"`
	}
	s.call("agent/models", map[string]any{"sessionId": id}, &models)
	found := false
	for _, m := range models.Models {
		if m.ID == "ollama" {
			found = true
			if !m.Free || m.Prices == nil || *m.Prices != (struct{ Input, CachedInput, Output float64 }{}) {
				t.Errorf("ollama preset = %+v, want free with prices 0", m)
			}
		}
	}
	if !found {
		t.Error("agent/models lacks ollama")
	}
}
