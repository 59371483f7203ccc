package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// A /model switch is stored with the session: `--continue` talks to the
// model the session was switched to.
func TestChatContinueKeepsSwitchedModel(t *testing.T) {
	state := t.TempDir()
	srv := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	common := []string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir(), "--state-dir", state}
	// No prompt after the switch: the switch is stored by itself.
	if code, out, errOut := runChatCmd(t, "hello\n/model deepseek-bigger\n", common...); code != 0 || !strings.Contains(out, "Model: deepseek-bigger") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := runChatCmd(t, "", append(common, "--continue", "-p", "again")...)
	if code != 0 || !strings.Contains(out, "two") || !strings.Contains(errOut, "model: deepseek-bigger") {
		t.Fatalf("continued run: exit %d\n%s\n%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Rejected != "" {
		t.Fatalf("requests = %+v", reqs)
	}
	var body struct{ Model string }
	if err := reqs[1].Decode(&body); err != nil || body.Model != "deepseek-bigger" {
		t.Fatalf("the continued request's model = %q (%v), want the switched one", body.Model, err)
	}
}

// A session switched to a preset on another endpoint (gpt-4.1 at OpenAI)
// stores the preset's key variable, never the key. A run whose --base-url
// names another endpoint talks to that one without trying the stored
// preset (its key unset now or not), and says so. (When the run names no
// other endpoint and the stored one cannot be reached, the session falls
// back to the configured model: agent/control's TestModelRestore.)
func TestChatContinueOnAnotherEndpointSkipsTheStoredPreset(t *testing.T) {
	const secret = "sk-chat-test-never-stored-55e1"
	t.Setenv("OPENAI_API_KEY", secret)
	state := t.TempDir()
	srv := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	common := []string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir(), "--state-dir", state}
	if code, out, errOut := runChatCmd(t, "hello\n/model openai\n", common...); code != 0 || !strings.Contains(out, "Model: gpt-4.1") {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	files, err := filepath.Glob(filepath.Join(state, "*.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("session files = %v, %v", files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), `"apiKeyEnv":"OPENAI_API_KEY"`) {
		t.Fatalf("session file (the key must not be in it, its variable must):\n%s", data)
	}

	t.Setenv("OPENAI_API_KEY", "")
	code, out, errOut := runChatCmd(t, "", append(common, "--continue", "-p", "again")...)
	if code != 0 || !strings.Contains(out, "two") {
		t.Fatalf("continued run: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "as --base-url sets it; the session's stored model gpt-4.1 (openai, https://api.openai.com/v1) is not used") {
		t.Errorf("the run's choice was not told: %s", errOut)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || reqs[1].Rejected != "" {
		t.Fatalf("the continued request did not reach the configured model: %+v", reqs)
	}
}
