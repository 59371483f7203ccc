package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// An editor user without the key's variable is told which variable to
// set and which setting names another, not the terminal's flags; a prompt
// says the same.
func TestMissingKeyMessageSpeaksOfEditorSettings(t *testing.T) {
	const keyVar = "AGENT_LSP_TEST_UNSET_KEY"
	t.Setenv(keyVar, "")
	s := start(t, nil, setupOptions{caps: fullCaps})
	s.initialize(map[string]any{"baseURL": "https://api.example.invalid/v1", "apiKeyEnv": keyVar})
	var st mcpStatusResult
	s.call("agent/mcpStatus", map[string]any{}, &st) // answered after initialized's warnings
	var warnings []string
	for _, n := range s.ed.Notifications("window/showMessage") {
		var m protocol.ShowMessageParams
		if err := json.Unmarshal(n.Params, &m); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Message, "API key") {
			warnings = append(warnings, m.Message)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("API key warnings = %q, want one", warnings)
	}
	var r promptResult
	if err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"prompt": "hi"}, &r); err == nil && r.Error == "" {
		t.Fatalf("a prompt without a key answered %+v", r)
	} else if err != nil {
		r.Error = err.Error()
	}
	for _, msg := range []string{warnings[0], r.Error} {
		for _, want := range []string{keyVar, "environment the editor is started from", "apiKeyEnv", "api_key_env", "agentLsp.apiKeyEnv", "Agent: Set API Key"} {
			if !strings.Contains(msg, want) {
				t.Errorf("message %q does not say %q", msg, want)
			}
		}
		if strings.Contains(msg, "--api-key-env") || strings.Contains(msg, "AGENT_LSP_API_KEY_ENV") {
			t.Errorf("message %q speaks of the terminal's flags", msg)
		}
	}
}
