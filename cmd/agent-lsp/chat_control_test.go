package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func TestChatControl(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tc := newTestChat(t, root, providertest.Script{{Text: "seen"}}, nil)
	sess, srv := tc.c.sess, tc.srv
	// command runs a line and returns what it showed.
	command := func(line string) (msg string, handled bool, err error) {
		tc.out.Reset()
		handled, err = tc.c.command(context.Background(), line)
		return tc.out.String(), handled, err
	}

	if _, handled, _ := command("hello"); handled {
		t.Error("a prompt was taken for a command")
	}
	if msg, _, err := command("/mode plan"); err != nil || sess.Mode() != agent.ModePlan || !strings.Contains(msg, "plan") {
		t.Errorf("/mode plan = %q, %v (mode %s)", msg, err, sess.Mode())
	}
	if _, _, err := command("/mode yolo"); err == nil {
		t.Error("/mode yolo accepted")
	}
	// The mentions are attached to the prompt the model reads; the one
	// that cannot be is shown.
	out, err := tc.line(t, "look at @a.txt#L2 and @gone.txt")
	if err != nil {
		t.Fatal(err)
	}
	text, notes := lastUserText(t, srv), notAttachedLines(out)
	if !strings.Contains(text, "two") || len(notes) != 1 || !strings.Contains(notes[0], "gone.txt") {
		t.Errorf("attach = %q, %v", text, notes)
	}
	if msg, _, _ := command("/model"); !strings.Contains(msg, "deepseek-anthropic") {
		t.Errorf("/model = %q", msg)
	}
	if msg, _, err := command("/model ollama"); err != nil || sess.Model().Model != "qwen3-coder" {
		t.Errorf("/model ollama = %q, %v (model %+v)", msg, err, sess.Model())
	}
	// OpenAI needs a key the environment does not have: the model stays.
	if _, _, err := command("/model openai"); err == nil || sess.Model().Model != "qwen3-coder" {
		t.Errorf("/model openai without a key: %v, model %s", err, sess.Model().Model)
	}
}

// lastUserText is the text of the last user message the model received.
func lastUserText(t *testing.T, srv *providertest.Server) string {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no request reached the model")
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := reqs[len(reqs)-1].Decode(&body); err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, m := range body.Messages {
		if m.Role == "user" {
			text = m.Content
		}
	}
	return text
}

func notAttachedLines(out string) []string {
	var notes []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "not attached") {
			notes = append(notes, l)
		}
	}
	return notes
}

// A /model switch is stored with the session: `--continue` talks to the
// model the session was switched to.
func TestChatContinueKeepsSwitchedModel(t *testing.T) {
	state := t.TempDir()
	srv := providertest.NewServer(t, providertest.Script{{Text: "one"}, {Text: "two"}})
	common := []string{"--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none", "--dir", t.TempDir(), "--state-dir", state}
	// No prompt after the switch: the switch is stored by itself.
	if code, out, errOut := runChatCmd(t, "hello\n/model deepseek-bigger\n", common...); code != 0 || !strings.Contains(out, "model: deepseek-bigger") {
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
	if code, out, errOut := runChatCmd(t, "hello\n/model openai\n", common...); code != 0 || !strings.Contains(out, "model: gpt-4.1") {
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
