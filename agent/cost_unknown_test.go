package agent

import (
	"math"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// millionIn is a round that read a million fresh prompt tokens: $2.00 at
// gpt-4.1's table price.
func millionIn(answerText string) []provider.Event {
	return answer(text(answerText), provider.Event{Type: provider.EventDone, StopReason: provider.StopEndTurn,
		Usage: provider.Usage{PromptTokens: 1_000_000}})
}

// promptEnds runs one prompt and returns its round_end events.
func promptEnds(t *testing.T, s *Session, p string) []Event {
	t.Helper()
	rec := &recorder{}
	s.Prompt(t.Context(), p, rec)
	ends := rec.ofKind(EventRoundEnd)
	if len(ends) != 1 {
		t.Fatalf("round_end events = %+v", ends)
	}
	return ends
}

// TestCostOfAnUnknownModelIsUnknown: a model the table does not know is not
// priced as another one (it used to be deepseek-flash's): the call's cost
// and the totals are unknown, and stay so across a resume; a switch to a
// known model prices its calls by the table, the totals still partial.
func TestCostOfAnUnknownModelIsUnknown(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	model := newFakeModel(millionIn("one"), millionIn("two"))
	s := NewSession(Config{Provider: model, Model: "qwen3-local", Store: store}, sys)
	e := promptEnds(t, s, "a")[0]
	if !e.CostUnknown || e.Cost != 0 || e.Totals.CostKnown() || e.Totals.Unpriced != 1 || e.Totals.Cost != 0 {
		t.Fatalf("unknown model's round_end: cost %v unknown %v totals %+v; want an unknown cost", e.Cost, e.CostUnknown, e.Totals)
	}

	if err := s.SetModel(ModelSettings{Provider: model, Model: "gpt-4.1"}); err != nil {
		t.Fatal(err)
	}
	e = promptEnds(t, s, "b")[0]
	if e.CostUnknown || math.Abs(e.Cost-2.00) > 1e-9 {
		t.Errorf("gpt-4.1 round: cost %v unknown %v; want the table's $2.00", e.Cost, e.CostUnknown)
	}
	if tot := e.Totals; tot.Calls != 2 || tot.Unpriced != 1 || tot.CostKnown() || math.Abs(tot.Cost-2.00) > 1e-9 {
		t.Errorf("totals = %+v; want 2 calls, one unpriced, $2.00 of the priced one", tot)
	}

	resumed, err := ResumeSession(Config{Provider: model, Model: "qwen3-local", Store: store}, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resumed.Totals(), s.Totals(); got != want {
		t.Errorf("resumed totals = %+v, want %+v (the unpriced call stays unpriced)", got, want)
	}
}

// TestCostOfAFreeModelIsZero: a model the user says is free costs $0, a
// known cost; the word holds for the configured model only, so a switch
// to a priced model is priced by the table, and a free record prices $0.
func TestCostOfAFreeModelIsZero(t *testing.T) {
	model := newFakeModel(millionIn("one"), millionIn("two"), millionIn("three"))
	s := NewSession(Config{Provider: model, Model: "qwen3-coder", Free: true}, sys)
	e := promptEnds(t, s, "a")[0]
	if e.CostUnknown || e.Cost != 0 || !e.Totals.CostKnown() || e.Totals.Calls != 1 {
		t.Fatalf("free model's round_end: cost %v unknown %v totals %+v; want a known $0", e.Cost, e.CostUnknown, e.Totals)
	}

	if err := s.SetModel(ModelSettings{Provider: model, Model: "gpt-4.1"}); err != nil {
		t.Fatal(err)
	}
	if e = promptEnds(t, s, "b")[0]; e.CostUnknown || math.Abs(e.Cost-2.00) > 1e-9 {
		t.Errorf("after the switch to gpt-4.1: cost %v unknown %v; want the table's $2.00", e.Cost, e.CostUnknown)
	}

	rec := ModelRecord{Provider: "openai", Model: "qwen3-coder", BaseURL: "http://localhost:11434/v1", Free: true}
	if err := s.SetModel(rec.Settings(model)); err != nil {
		t.Fatal(err)
	}
	if e = promptEnds(t, s, "c")[0]; e.CostUnknown || e.Cost != 0 {
		t.Errorf("free record: cost %v unknown %v; want a known $0", e.Cost, e.CostUnknown)
	}
	if stored, ok := s.StoredModel(); !ok || !stored.Free {
		t.Errorf("stored model = %+v, %v; want the free record", stored, ok)
	}
	if tot := e.Totals; !tot.CostKnown() || math.Abs(tot.Cost-2.00) > 1e-9 {
		t.Errorf("totals = %+v; want a known $2.00", tot)
	}
}

// TestCostOfAKnownModelIsTheTables: a model in the table is priced by it,
// here gpt-4.1's published $2.00 per million fresh prompt tokens.
func TestCostOfAKnownModelIsTheTables(t *testing.T) {
	s := NewSession(Config{Provider: newFakeModel(millionIn("one")), Model: "gpt-4.1"}, sys)
	e := promptEnds(t, s, "a")[0]
	if e.CostUnknown || math.Abs(e.Cost-2.00) > 1e-9 || !e.Totals.CostKnown() || math.Abs(e.Totals.Cost-2.00) > 1e-9 {
		t.Errorf("gpt-4.1 round_end: cost %v unknown %v totals %+v; want $2.00", e.Cost, e.CostUnknown, e.Totals)
	}
}
