package agent

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

const (
	switchKeyEnv   = "AGENT_LSP_TEST_SWITCH_KEY"
	switchKeyValue = "sk-test-must-never-be-stored-7f3a"
)

// switchedConfig is a connection as a front end configures it: the key is
// in the environment, the configuration names the variable.
func switchedConfig() provider.Config {
	return provider.Config{Provider: "anthropic", Model: "claude-sonnet-4-5", BaseURL: "https://api.example.test/anthropic",
		APIKeyEnv: switchKeyEnv, MaxTokens: 4096, Thinking: true, Effort: "medium", IdleTimeout: time.Minute}
}

// A model switch is stored as a record of plain settings: a resumed
// session returns it (and a front end can rebuild the same configuration
// from it), the API key never reaches the file, and switching back to an
// unrecorded model stores "the configured model".
func TestModelRecordRoundTrips(t *testing.T) {
	t.Setenv(switchKeyEnv, switchKeyValue)
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := newFakeModel(answer(text("one"), done(provider.StopEndTurn, 100, 2)))
	cfg := Config{Provider: first, Model: "deepseek-flash", Store: store}
	s := NewSession(cfg, sys)
	if o := s.Prompt(t.Context(), "hello", nil); o.StopReason != StopEndTurn {
		t.Fatalf("prompt: %+v", o)
	}
	if _, ok := s.StoredModel(); ok {
		t.Fatal("a session never switched has a stored model")
	}

	price := Price{CacheHit: 0.1, CacheMiss: 1, Output: 4}
	m := ModelRecordOf(switchedConfig()).Settings(newFakeModel())
	m.ContextWindow, m.Pricing = 100_000, &Pricing{OffPeak: price}
	if err := s.SetModel(m); err != nil {
		t.Fatal(err)
	}
	want := ModelRecord{Provider: "anthropic", Model: "claude-sonnet-4-5", BaseURL: "https://api.example.test/anthropic",
		APIKeyEnv: switchKeyEnv, MaxTokens: 4096, Thinking: true, Effort: "medium", ContextWindow: 100_000, Price: price}
	if got, ok := s.StoredModel(); !ok || got != want {
		t.Fatalf("StoredModel = %+v, %v; want %+v", got, ok, want)
	}

	// Written at once, without another round: a restart right after the
	// switch keeps it.
	data, err := os.ReadFile(store.path(s.ID()))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(switchKeyValue)) {
		t.Fatalf("the API key is in the session file:\n%s", data)
	}
	if !bytes.Contains(data, []byte(`"apiKeyEnv":"`+switchKeyEnv+`"`)) || !bytes.HasSuffix(data, []byte(`{"type":"commit"}`+"\n")) {
		t.Fatalf("the switch was not committed by name:\n%s", data)
	}

	resumed, err := ResumeSession(cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	got, ok := resumed.StoredModel()
	if !ok || got != want {
		t.Fatalf("resumed StoredModel = %+v, %v; want %+v", got, ok, want)
	}
	if resumed.Model().Model != "deepseek-flash" {
		t.Errorf("the resumed session talks to %q before its front end reconnects it", resumed.Model().Model)
	}
	base := provider.Config{IdleTimeout: 3 * time.Minute}
	wantCfg := switchedConfig()
	wantCfg.IdleTimeout = base.IdleTimeout
	if c := got.Config(base); c != wantCfg {
		t.Errorf("Config = %+v, want %+v", c, wantCfg)
	}
	restored := got.Settings(newFakeModel())
	if restored.ContextWindow != 100_000 || restored.Pricing == nil || restored.Pricing.OffPeak != price ||
		restored.Thinking != (provider.Thinking{Enabled: true, Effort: "medium"}) {
		t.Errorf("Settings = %+v", restored)
	}
	// Reconnecting to the stored model stores nothing new.
	if err := resumed.SetModel(restored); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(store.path(s.ID())); !bytes.Equal(after, data) {
		t.Errorf("reconnecting to the stored model wrote to the file:\n%s", after[len(data):])
	}

	// A switch without a record: the session goes back to the configured
	// model when resumed.
	if err := resumed.SetModel(ModelSettings{Provider: first, Model: "deepseek-flash"}); err != nil {
		t.Fatal(err)
	}
	again, err := ResumeSession(cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := again.StoredModel(); ok {
		t.Errorf("after a switch without a record, StoredModel = %+v", r)
	}
}

// A switch before the session's first round is written with that round
// (a session with no round has no file).
func TestModelRecordWrittenWithTheRound(t *testing.T) {
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	next := newFakeModel(answer(text("one"), done(provider.StopEndTurn, 100, 2)))
	cfg := Config{Provider: newFakeModel(), Model: "deepseek-flash", Store: store}
	s := NewSession(cfg, sys)
	if err := s.SetModel(ModelRecordOf(switchedConfig()).Settings(next)); err != nil {
		t.Fatal(err)
	}
	if list, _ := store.List(); len(list) != 0 {
		t.Fatalf("a session with no round was stored: %+v", list)
	}
	if o := s.Prompt(t.Context(), "hello", nil); o.StopReason != StopEndTurn {
		t.Fatalf("prompt: %+v", o)
	}
	if reqs := next.Requests(); len(reqs) != 1 || reqs[0].Model != "claude-sonnet-4-5" {
		t.Fatalf("the prompt did not go to the switched model: %+v", reqs)
	}
	resumed, err := ResumeSession(cfg, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := resumed.StoredModel(); !ok || r.Model != "claude-sonnet-4-5" || r.Provider != "anthropic" {
		t.Errorf("StoredModel = %+v, %v", r, ok)
	}
}
