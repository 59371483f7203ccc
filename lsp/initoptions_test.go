package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// initializationOptions are decoded once, into one type: a field of the
// wrong shape is -32602 naming initializationOptions wherever it sits
// (the controller's mode and models among the rest), except the inline
// completion setting, which only turns completion off and says why at
// initialized: the daemon serves on without it.
func TestInitOptionsOfTheWrongShape(t *testing.T) {
	for name, options := range map[string]map[string]any{
		"mode":    {"mode": 3},
		"models":  {"models": map[string]any{"id": "x"}},
		"budget":  {"budget": "big"},
		"sandbox": {"sandbox": "off"},
	} {
		s := start(t, nil, setupOptions{caps: fullCaps})
		_, err := s.ed.Initialize(ctx(t), s.root, s.caps, options)
		if got := errorCode(t, err); got != -32602 || !strings.Contains(err.Error(), "initializationOptions") {
			t.Errorf("%s of the wrong shape: code %d (%v), want -32602 naming initializationOptions", name, got, err)
		}
	}

	s := start(t, nil, setupOptions{caps: fullCaps})
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(s.initialize(map[string]any{"completion": map[string]any{"dialect": "llamacpp", "maxTokens": "many"}}), &res); err != nil {
		t.Fatal(err)
	}
	if got, ok := res.Capabilities["inlineCompletionProvider"]; ok {
		t.Errorf("inlineCompletionProvider = %s for a completion setting of the wrong shape", got)
	}
	var st mcpStatusResult
	s.call("agent/mcpStatus", map[string]any{}, &st) // answered after initialized's warnings
	var warned bool
	for _, n := range s.ed.Notifications("window/showMessage") {
		var m protocol.ShowMessageParams
		if err := json.Unmarshal(n.Params, &m); err != nil {
			t.Fatal(err)
		}
		warned = warned || strings.Contains(m.Message, "inline completion is off: completion options:") && strings.Contains(m.Message, "maxTokens")
	}
	if !warned {
		t.Errorf("no warning names the completion setting's fault: %v", s.ed.Notifications("window/showMessage"))
	}
}
