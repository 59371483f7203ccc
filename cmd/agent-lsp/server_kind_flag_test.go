package main

import (
	"io"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// --server-kind sets the kind; without it the kind is detected from the
// base URL (an Ollama port here).
func TestServerKindFlag(t *testing.T) {
	getenv := func(string) string { return "" }
	c, fs, err := parseChatFlags([]string{"--base-url", "http://localhost:11434/v1", "--server-kind", "LlamaCpp"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.modelFlags.config(fs, getenv); got.ServerKind != "llamacpp" || got.Flavour().Kind != provider.KindLlamaCpp {
		t.Fatalf("--server-kind llamacpp: %q (flavour %q)", got.ServerKind, got.Flavour().Kind)
	}
	c, fs, err = parseChatFlags([]string{"--base-url", "http://localhost:11434/v1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.modelFlags.config(fs, getenv); got.ServerKind != "" || got.Flavour().Kind != provider.KindOllama {
		t.Fatalf("detected: %q (flavour %q), want ollama by detection", got.ServerKind, got.Flavour().Kind)
	}
}
