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
