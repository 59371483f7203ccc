package e2e

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The first hour in a real VS Code (issue 25, items 7 and 2;
// scenario/lib/steps_errors.mjs): the chat opened from its activity-bar
// icon and from Ctrl+Alt+A, with its empty state and no Plan view; then
// no binary, no key and a wrong key each give exactly one notification
// with its fix as a button, and Set API Key sends the prompt the missing
// key stopped again. The fake model answers that prompt 401 with the body
// DeepSeek sends for a wrong key.
func TestCodeServerFirstHourMistakes(t *testing.T) {
	peers := requireScenario(t)
	const (
		prompt          = "What does review.go do?"
		providerMessage = "Authentication Fails, Your api key: ****rong is invalid"
	)
	model := providertest.NewServer(t, providertest.Script{{Fault: &providertest.Fault{Status: 401,
		Body: `{"error":{"message":"` + providerMessage + `","type":"authentication_error","param":null,"code":"invalid_request_error"}}`}}})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	base := os.Getenv("ARTIFACTS")
	if base == "" {
		base = filepath.Join("..", "..", "..", ".ci", "artifacts")
	}
	artifacts, err := filepath.Abs(filepath.Join(base, "vscode-scenario-errors"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(artifacts); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{
		"suite": "errors", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": artifacts, "file": "review.go", "timeoutMs": 20000,
		"errorPrompt": prompt, "keyVariable": "AGENT_LSP_SCENARIO_KEY", "wrongKey": "sk-wrong",
		"providerMessage": providerMessage, "unreachableURL": closedURL(t),
		// No binary at first: a path that is not there, as a newcomer
		// without agent-lsp installed has.
		"settings": map[string]any{"agentLsp.path": filepath.Join(t.TempDir(), "agent-lsp")},
	}
	sum := runScenario(t, peers, cfg) // it logs the steps and where the screenshots are
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	// The wrong key reached the model once, with the prompt the missing key had stopped.
	reqs := model.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), jsonText(prompt)) {
		t.Fatalf("%d model requests, want 1 carrying the prompt", len(reqs))
	}
}

// closedURL is a model URL on a loopback port nothing listens on (one
// just closed): a connection to it is refused.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr + "/v1"
}
