package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// startInlineOn starts a daemon whose inline completion talks to fimServer
// with the given completion options.
func startInlineOn(t *testing.T, fimServer *providertest.Server, opts map[string]any) *setup {
	t.Helper()
	s := start(t, providertest.Script{}, setupOptions{})
	opts["baseURL"], opts["apiKeyEnv"], opts["debounceMs"] = fimServer.FIMBaseURL(), "none", 0
	s.initialize(map[string]any{"completion": opts})
	return s
}

// Against llama.cpp on a port that is not its default, a completion
// configured without a dialect reaches /infill, where llama.cpp reads the
// code after the cursor.
func TestInlineCompletionDetectsLlamaCpp(t *testing.T) {
	llama := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}},
		providertest.WithSeed(11), providertest.WithLlamaCpp(4096))
	s := startInlineOn(t, llama, map[string]any{"model": "coder"})
	path, pos := s.openAt("a.go", "package main\n\nvar x = |\nvar y = 2\n")
	if l := s.inline(path, pos, invoked); len(l.Items) != 1 {
		t.Fatalf("items %+v", l)
	}
	r := llama.FIMRequests()[0]
	if r.Dialect != providertest.FIMLlamaCpp || !strings.Contains(r.Suffix, "var y = 2") {
		t.Errorf("went to %s with suffix %q (ignored: %v), want /infill with the code after the cursor", r.Dialect, r.Suffix, r.SuffixIgnored)
	}
	if shown := s.ed.Notifications("window/showMessage"); len(shown) != 0 {
		t.Errorf("a detected server warned: %+v", shown)
	}
}

// A configured dialect the server contradicts is a warning the user sees
// (window/showMessage), not only a log line.
func TestInlineCompletionWarnsOfAContradictedDialect(t *testing.T) {
	llama := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}},
		providertest.WithSeed(12), providertest.WithLlamaCpp(4096))
	s := startInlineOn(t, llama, map[string]any{"dialect": "openai", "model": "coder"})
	path, pos := s.openAt("a.go", "package main\n\nvar x = |\n")
	s.inline(path, pos, invoked)
	n, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool { return n.Method == "window/showMessage" })
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Type    int    `json:"type"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(n.Params, &msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != 2 || !strings.Contains(msg.Message, "llama.cpp") || !strings.Contains(msg.Message, "suffix") {
		t.Errorf("showMessage %+v, want a warning naming llama.cpp and the dropped suffix", msg)
	}
}
