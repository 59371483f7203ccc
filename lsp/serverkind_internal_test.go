package lsp

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// initializationOptions.serverKind reaches the model configuration (it picks
// the thinking switch the requests carry); absent, the daemon's stays.
func TestServerKindFromInitializationOptions(t *testing.T) {
	base := provider.DefaultConfig("openai")
	base.ServerKind = "vllm"
	s := &server{opts: Options{Provider: base}}
	kind := " LlamaCpp "
	if got := s.merge(initOptions{ServerKind: &kind}, nil).model; got.ServerKind != "llamacpp" || got.Flavour().Kind != provider.KindLlamaCpp {
		t.Fatalf("serverKind option: %q (flavour %q), want llamacpp", got.ServerKind, got.Flavour().Kind)
	}
	if got := s.merge(initOptions{}, nil).model.ServerKind; got != "vllm" {
		t.Fatalf("no serverKind option: %q, want the daemon's vllm", got)
	}
}
