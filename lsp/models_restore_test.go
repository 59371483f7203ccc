package lsp_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

const (
	restoreKeyEnv   = "AGENT_LSP_TEST_RESTORE_KEY"
	restoreKeyValue = "sk-restore-test-never-stored-91c2"
)

// stateFiles returns every session file of a state directory, joined.
func stateFiles(t *testing.T, dir string) []byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no session file in %s (%v)", dir, err)
	}
	var all []byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	return all
}

// A session switched with agent/setModel from the Chat Completions to the
// Messages dialect keeps that model across a daemon restart: the next
// prompt goes to the Messages endpoint and the strict fake accepts it. The
// key's variable is stored by name, never its value.
func TestSwitchedModelSurvivesARestart(t *testing.T) {
	t.Setenv(restoreKeyEnv, restoreKeyValue)
	stateDir := t.TempDir()
	s := start(t, providertest.Script{{Text: "one"}, {Text: "two"}}, setupOptions{caps: fullCaps, stateDir: stateDir})
	s.initialize(nil)
	id := s.controlPrompt(map[string]any{"prompt": "hello"}).SessionID
	s.call("agent/setModel", map[string]any{"sessionId": id, "provider": anthropic.Name, "model": "deepseek-flash",
		"baseURL": s.model.AnthropicBaseURL(), "apiKeyEnv": restoreKeyEnv}, nil)
	s.stop() // no prompt after the switch: it is stored by itself

	files := stateFiles(t, stateDir)
	if bytes.Contains(files, []byte(restoreKeyValue)) {
		t.Fatalf("the API key is in the state directory:\n%s", files)
	}
	if !bytes.Contains(files, []byte(`"apiKeyEnv":"`+restoreKeyEnv+`"`)) {
		t.Fatalf("the switch is not stored:\n%s", files)
	}

	s2 := start(t, nil, setupOptions{caps: fullCaps, stateDir: stateDir, model: s.model})
	s2.initialize(nil)
	var st struct{ Provider, Model, BaseURL string }
	s2.call("agent/session", map[string]any{"sessionId": id}, &st)
	if st.Provider != anthropic.Name || st.BaseURL != s.model.AnthropicBaseURL() {
		t.Errorf("agent/session after the restart = %+v", st)
	}
	if r := s2.controlPrompt(map[string]any{"sessionId": id, "prompt": "again"}); r.Text != "two" {
		t.Fatalf("prompt after the restart = %+v", r)
	}
	reqs := s.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if reqs[1].Dialect != anthropic.Name || reqs[1].Rejected != "" {
		t.Fatalf("the request after the restart went to %s (refused: %q)", reqs[1].Dialect, reqs[1].Rejected)
	}
	if !strings.Contains(string(reqs[1].Body), "hello") {
		t.Errorf("the request after the restart lacks the earlier prompt: %s", reqs[1].Body)
	}
	for _, u := range s2.updates(id) {
		if u.Kind == "model" {
			t.Errorf("a restored model was reported as a change: %+v", u)
		}
	}
}

// When the stored model cannot be reached by the restarted daemon (its
// key's variable is not set there), the session talks to the configured
// model and the editor is told why in a model update.
func TestSwitchedModelFallsBackWhenItsKeyIsGone(t *testing.T) {
	t.Setenv(restoreKeyEnv, restoreKeyValue)
	stateDir := t.TempDir()
	s := start(t, providertest.Script{{Text: "one"}, {Text: "two"}}, setupOptions{caps: fullCaps, stateDir: stateDir})
	s.initialize(nil)
	id := s.controlPrompt(map[string]any{"prompt": "hello"}).SessionID
	// A remote endpoint needs its key; nothing is sent there before the restart.
	s.call("agent/setModel", map[string]any{"sessionId": id, "provider": anthropic.Name, "model": "claude-sonnet-4-5",
		"baseURL": "https://api.example.invalid/anthropic", "apiKeyEnv": restoreKeyEnv}, nil)
	s.stop()

	t.Setenv(restoreKeyEnv, "")
	s2 := start(t, nil, setupOptions{caps: fullCaps, stateDir: stateDir, model: s.model})
	s2.initialize(nil)
	if r := s2.controlPrompt(map[string]any{"sessionId": id, "prompt": "again"}); r.Text != "two" {
		t.Fatalf("prompt after the restart = %+v", r)
	}
	reqs := s.model.Requests()
	if len(reqs) != 2 || reqs[1].Dialect != openai.Name || reqs[1].Rejected != "" {
		t.Fatalf("the request after the restart did not go to the configured model: %+v", reqs)
	}
	var told []update
	for _, u := range s2.updates(id) {
		if u.Kind == "model" {
			told = append(told, u)
		}
	}
	if len(told) != 1 || !strings.Contains(told[0].Message, restoreKeyEnv) || !strings.Contains(told[0].Message, "claude-sonnet-4-5") {
		t.Fatalf("model updates = %+v, want one naming the model and the missing variable", told)
	}
	var st struct{ Provider, Model string }
	s2.call("agent/session", map[string]any{"sessionId": id}, &st)
	if st.Provider != openai.Name || st.Model != "deepseek-flash" {
		t.Errorf("agent/session after the fallback = %+v", st)
	}
}
