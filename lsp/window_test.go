package lsp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

type modelsWindow struct {
	Current struct {
		Model               string `json:"model"`
		ContextWindow       int    `json:"contextWindow"`
		ContextWindowSource string `json:"contextWindowSource"`
	} `json:"current"`
}

// agent/models says which window a session's budget follows and where it
// comes from: a llama.cpp server's /props for a model the tables do not know.
func TestModelsTellTheServersContextWindow(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(7),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowLlamaCpp, Model: "qwen3.gguf", Window: 4096, Max: 40960}))
	s := start(t, nil, setupOptions{caps: fullCaps, model: srv, windows: true})
	s.initialize(map[string]any{"model": "qwen3.gguf"})
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	s.call("agent/newSession", map[string]any{}, &ns)
	var m modelsWindow
	// The probe's outcome is not notified to the editor (agent/models is
	// how it learns it), so it is asked until the probe is over.
	await.Poll(t, 10*time.Second, "the window probe", func() bool {
		s.call("agent/models", map[string]any{"sessionId": ns.SessionID}, &m)
		return m.Current.ContextWindowSource != "probing"
	})
	if m.Current.ContextWindow != 4096 || !strings.HasPrefix(m.Current.ContextWindowSource, "server: ") ||
		!strings.Contains(m.Current.ContextWindowSource, "/props") {
		t.Fatalf("current = %+v, want 4096 from the server's /props", m.Current)
	}
}

// initializationOptions.contextWindow wins over the server's answer.
func TestModelsContextWindowSettingWins(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(7),
		providertest.WithWindow(providertest.Window{Kind: providertest.WindowVLLM, Model: "m", Window: 4096}))
	s := start(t, nil, setupOptions{caps: fullCaps, model: srv, windows: true})
	s.initialize(map[string]any{"model": "m", "contextWindow": 6000})
	var m modelsWindow
	s.call("agent/models", map[string]any{}, &m)
	if m.Current.ContextWindow != 6000 || m.Current.ContextWindowSource != "setting" {
		t.Fatalf("daemon's current = %+v, want the setting", m.Current)
	}
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	s.call("agent/newSession", map[string]any{}, &ns)
	s.call("agent/models", map[string]any{"sessionId": ns.SessionID}, &m)
	if m.Current.ContextWindow != 6000 || m.Current.ContextWindowSource != "setting" {
		t.Fatalf("session's current = %+v, want the setting", m.Current)
	}
}

// Before any session, agent/models still names a window for a model no
// table knows: the default guess, said to be one (never 0, which left
// each editor to guess).
func TestModelsWindowIsNeverZero(t *testing.T) {
	srv := providertest.NewServer(t, nil, providertest.WithSeed(7))
	s := start(t, nil, setupOptions{caps: fullCaps, model: srv})
	s.initialize(map[string]any{"model": "some-local-model"})
	var m modelsWindow
	s.call("agent/models", map[string]any{}, &m)
	if m.Current.ContextWindow <= 0 || m.Current.ContextWindowSource != "default" {
		t.Fatalf("daemon's current = %+v, want the default window, said to be the default", m.Current)
	}
}
