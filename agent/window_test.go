package agent

import "testing"

func windowShare(window int) int { return int(float64(window) * budgetShare) }

func TestUseContextWindow(t *testing.T) {
	s := NewSession(Config{Model: "local-model"}, "sys")
	if !s.UseContextWindow("local-model", 4096) || s.Budget() != windowShare(4096) {
		t.Fatalf("budget %d after a 4096-token window", s.Budget())
	}
	if s.UseContextWindow("another-model", 9000) || s.Budget() != windowShare(4096) {
		t.Fatalf("a window of another model applied: budget %d", s.Budget())
	}
	fixed := NewSession(Config{Model: "local-model", Budget: 3000}, "sys")
	if fixed.UseContextWindow("local-model", 100_000) || fixed.Budget() != 3000 {
		t.Fatalf("a fixed budget moved to %d", fixed.Budget())
	}
	preset := NewSession(Config{Model: "local-model"}, "sys")
	if err := preset.SetModel(ModelSettings{Provider: newFakeModel(), Model: "local-model", ContextWindow: 32000}); err != nil {
		t.Fatal(err)
	}
	if preset.UseContextWindow("local-model", 4096) || preset.Budget() != windowShare(32000) {
		t.Fatalf("the preset's window lost to a discovered one: budget %d", preset.Budget())
	}
	// A large window, discovered or preset, gets the cap, not 80% of it.
	large := NewSession(Config{Model: "local-model"}, "sys")
	if !large.UseContextWindow("local-model", 1_000_000) || large.Budget() != 64_000 {
		t.Fatalf("budget %d after a 1M-token window, want the 64K cap", large.Budget())
	}
	if err := preset.SetModel(ModelSettings{Provider: newFakeModel(), Model: "local-model", ContextWindow: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	if preset.Budget() != 64_000 {
		t.Fatalf("budget %d with a 1M-token preset window, want the 64K cap", preset.Budget())
	}
}
