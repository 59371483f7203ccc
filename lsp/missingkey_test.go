package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// An editor user without the key's variable is told, once and briefly,
// which variable to set and the fix in the editor they are in
// (clientInfo.name), never the terminal's flags nor another editor's
// settings; a prompt says the same. The head is stable: the VS Code
// extension recognises it to offer its Set API Key button.
func TestMissingKeyMessageSpeaksOfEditorSettings(t *testing.T) {
	const keyVar = "AGENT_LSP_TEST_UNSET_KEY"
	t.Setenv(keyVar, "")
	cases := []struct {
		client      string
		want, never []string
	}{
		{"Visual Studio Code", []string{"agent-lsp: Set API Key", "agentLsp.apiKeyEnv"}, []string{"Neovim", "api_key_env", "Agent: Set API Key"}},
		{"code-server", []string{"agent-lsp: Set API Key", "agentLsp.apiKeyEnv"}, []string{"Neovim", "api_key_env"}},
		{"Neovim", []string{"environment Neovim starts from", "api_key_env in setup()"}, []string{"VS Code", "agentLsp.", "Set API Key"}},
		{"", []string{"environment the editor starts from", "apiKeyEnv initialization option"}, []string{"VS Code", "Neovim", "agentLsp."}},
	}
	for _, c := range cases {
		t.Run(c.client, func(t *testing.T) {
			caps := fullCaps
			caps.ClientName = c.client
			s := start(t, nil, setupOptions{caps: caps})
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
				head := "no API key: the environment variable " + keyVar + " is not set"
				if !strings.Contains(msg, head) {
					t.Errorf("message %q does not start its reason with %q", msg, head)
				}
				for _, want := range c.want {
					if !strings.Contains(msg, want) {
						t.Errorf("message %q does not say %q", msg, want)
					}
				}
				for _, never := range append(c.never, "--api-key-env", "AGENT_LSP_API_KEY_ENV") {
					if strings.Contains(msg, never) {
						t.Errorf("message %q speaks of %q", msg, never)
					}
				}
				if words := len(strings.Fields(msg[strings.Index(msg, "no API key"):])); words > 40 {
					t.Errorf("message %q has %d words, want at most 40", msg, words)
				}
			}
		})
	}
}
