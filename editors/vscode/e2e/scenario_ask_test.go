package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Inline questions answered inline and a rewind the open chat shows
// (issue 25, items 4 and 10; scenario/lib/steps_ask.mjs): Alt+I on line 3
// of review.go with the chat never opened; the answer is read in a zone
// under the line, rendered; the chat then shows the prompt, and a rewind
// that truncates the conversation removes it from the open chat.
func TestCodeServerInlineAsk(t *testing.T) {
	peers := requireScenario(t)
	const (
		question = "Why is this function empty?"
		answer   = "It is a **placeholder**: `oldName` is only referenced, never called. That is all."
	)
	model := providertest.NewServer(t, providertest.Script{{Text: answer}})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"suite": "ask", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": hostileArtifacts(t, "ask"), "file": "review.go", "timeoutMs": 20000,
		"askLine": 3, "askQuestion": question, "askAnswerEnd": "That is all.", "askStrong": "placeholder", "askCode": "oldName",
	}
	sum := runScenario(t, peers, cfg)
	for _, s := range sum.Steps {
		t.Logf("step %-22s %6d ms", s.Name, s.Ms)
	}
	t.Logf("screenshots in %s", cfg["artifacts"])
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests, want 1", len(reqs))
	}
	if reqs[0].Rejected != "" {
		t.Errorf("the request was rejected by the strict fake: %s", reqs[0].Rejected)
	}
	// The question carries the line it was asked on.
	for _, want := range []string{question, "func oldName() {}"} {
		if !strings.Contains(string(reqs[0].Body), jsonText(want)) {
			t.Errorf("the question's request lacks %q: %s", want, reqs[0].Body)
		}
	}
}
