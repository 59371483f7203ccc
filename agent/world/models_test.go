package world_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent/world"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// fakeConfig is a model of the strict fake in dialect.
func fakeConfig(srv *providertest.Server, dialect, model string) provider.Config {
	cfg := provider.DefaultConfig(dialect)
	cfg.APIKeyEnv, cfg.Thinking, cfg.Model = "none", false, model
	cfg.BaseURL = srv.OpenAIBaseURL()
	if dialect == anthropic.Name {
		cfg.BaseURL = srv.AnthropicBaseURL()
	}
	return cfg
}

// ask sends one user message and returns the answer's text, or the failure.
func ask(t *testing.T, p provider.Provider, text string) string {
	t.Helper()
	var b strings.Builder
	req := provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Text: text}}, MaxTokens: 100}
	for ev := range p.Stream(context.Background(), req) {
		switch ev.Type {
		case provider.EventText:
			b.WriteString(ev.Text)
		case provider.EventFailure:
			return "failure: " + ev.Err.Error()
		}
	}
	return b.String()
}

// A run's recording keeps the exchanges of the configured model and of the
// model switched to (another dialect here), in order, and a replay of it
// answers the first model and the switched one with them, in order,
// without a model server.
func TestModelsRecordAndReplayAcrossASwitch(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	path := filepath.Join(t.TempDir(), "session.jsonl")
	rec, err := world.OpenModels(world.ModelOptions{RecordPath: path})
	if err != nil {
		t.Fatal(err)
	}
	first, err := rec.Connect(fakeConfig(srv, openai.Name, "m1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, first, "hello"); got != "one" {
		t.Fatalf("first model: %q", got)
	}
	switched, _, err := rec.Connector()(fakeConfig(srv, anthropic.Name, "m2"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, switched, "again"); got != "two" {
		t.Fatalf("switched model: %q", got)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	play, err := world.OpenModels(world.ModelOptions{ReplayPath: path})
	if err != nil {
		t.Fatal(err)
	}
	if !play.Replaying() {
		t.Fatal("a replay says it is not replaying")
	}
	none := providertest.NewServer(t, nil) // any request to it fails the test
	first, err = play.Connect(fakeConfig(none, openai.Name, "m1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, first, "hello"); got != "one" {
		t.Fatalf("replayed first model: %q", got)
	}
	switched, err = play.Connect(fakeConfig(none, anthropic.Name, "m2"))
	if err != nil {
		t.Fatal(err)
	}
	if got := ask(t, switched, "again"); got != "two" {
		t.Fatalf("replayed switched model: %q", got)
	}
	if err := play.Close(); err != nil {
		t.Fatal(err)
	}
}

// A key the configuration names but the environment lacks is the
// connection's error, as it was before the factory.
func TestModelsMissingKey(t *testing.T) {
	m, err := world.OpenModels(world.ModelOptions{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	cfg := provider.DefaultConfig(openai.Name)
	cfg.APIKeyEnv = "WORLD_TEST_KEY"
	if _, err := m.Connect(cfg); err == nil || !strings.Contains(err.Error(), "WORLD_TEST_KEY") {
		t.Fatalf("Connect without the key: %v", err)
	}
}

// A replay that cannot be read is OpenModels' error and every
// connection's, so that a front end serving anyway says why at a prompt.
func TestModelsUnreadableReplayIsEveryConnectionsError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent.jsonl")
	m, err := world.OpenModels(world.ModelOptions{ReplayPath: missing})
	if err == nil {
		t.Fatal("OpenModels of a missing replay succeeded")
	}
	cfg := provider.DefaultConfig(openai.Name)
	cfg.APIKeyEnv = "none"
	if _, cerr := m.Connect(cfg); cerr == nil || cerr.Error() != err.Error() {
		t.Fatalf("Connect = %v, want %v", cerr, err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}
