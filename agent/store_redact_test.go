package agent

import (
	"os"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A hidden secret the conversation carries (the user's prompt, the model
// echoing it) is written to the session file as [REDACTED].
func TestSessionFileHoldsNoHiddenSecret(t *testing.T) {
	const secret = "session-canary-secret-9a1f"
	t.Setenv("AGENT_TEST_SESSION_TOKEN", secret)
	if err := tools.HideEnv("AGENT_TEST_SESSION_TOKEN"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := NewStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := newFakeModel(answer(text("your token is "+secret), done(provider.StopEndTurn, 100, 5)))
	s := NewSession(Config{Provider: model, Model: "m", Tools: newRegistry(t, echoTool), Env: testEnv(t), Store: store}, sys)
	if o := s.Prompt(t.Context(), "remember "+secret, nil); o.StopReason != StopEndTurn {
		t.Fatalf("%+v", o)
	}
	data, err := os.ReadFile(store.path(s.ID()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || strings.Count(string(data), tools.Redacted) < 3 {
		t.Errorf("session file (want the secret redacted in the title, the prompt and the answer):\n%s", data)
	}
	if _, err := ResumeSession(s.cfg, s.ID()); err != nil {
		t.Errorf("the redacted session does not load: %v", err)
	}
}

// A long answer is written to the session file a chunk at a time: a
// hidden secret across two chunks is still redacted.
func TestLongAnswerInSessionFileHoldsNoHiddenSecret(t *testing.T) {
	const secret = "session-canary-long-secret-77c2"
	t.Setenv("AGENT_TEST_SESSION_TOKEN", secret)
	if err := tools.HideEnv("AGENT_TEST_SESSION_TOKEN"); err != nil {
		t.Fatal(err)
	}
	store, err := NewStore(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 32<<10-10) + secret + strings.Repeat("y", 96<<10)
	model := newFakeModel(answer(text(long), done(provider.StopEndTurn, 100, 5)))
	s := NewSession(Config{Provider: model, Model: "m", Tools: newRegistry(t, echoTool), Env: testEnv(t), Store: store}, sys)
	if o := s.Prompt(t.Context(), "write", nil); o.StopReason != StopEndTurn {
		t.Fatalf("%+v", o)
	}
	data, err := os.ReadFile(store.path(s.ID()))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), secret) || !strings.Contains(string(data), tools.Redacted) {
		t.Errorf("the session file holds the secret (%d bytes)", len(data))
	}
	r, err := ResumeSession(s.cfg, s.ID())
	if err != nil {
		t.Fatalf("the session does not load: %v", err)
	}
	h := r.History()
	if want := strings.Replace(long, secret, tools.Redacted, 1); h[len(h)-1].Text != want {
		t.Errorf("the resumed answer holds %d bytes, want the answer redacted (%d)", len(h[len(h)-1].Text), len(want))
	}
}
