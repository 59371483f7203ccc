package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Queue, steer and a subagent in the chat (issue 28;
// scenario/lib/steps_queue.mjs): the task call's card shows the child's
// grep, answer and usage nested under it; while the turn's command waits
// (for a file the scenario makes), Enter queues a message and Ctrl+Enter
// steers, both shown above the input, and the queued one is edited; the
// steer reaches the request after the command's result, the edited
// prompt runs after the turn; "Open transcript" shows the child's
// conversation. In both dialects; screenshots in
// .ci/artifacts/vscode-scenario-hostile/queue-{openai,anthropic}.
func TestCodeServerQueueSteerSubagent(t *testing.T) {
	peers := requireScenario(t)
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) { queueScenario(t, peers, dialect) })
	}
}

func queueScenario(t *testing.T, peers scenarioPeers, dialect string) {
	const (
		prompt      = "Find where oldName is used, then run the slow check."
		description = "Find oldName"
		taskPrompt  = "Where is oldName used in this workspace?"
		childAnswer = "oldName is used in review.go, by y."
		release     = "release"
		queued      = "Then summarise."
		edited      = "Then summarise in one line."
		steer       = "Also mention the file."
		steered     = "The check passed; the file is review.go."
		queuedRan   = "Summary: oldName is unused code."
	)
	model := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_task", Name: "task",
			Arguments: `{"description":"` + description + `","prompt":"` + taskPrompt + `"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_0", Name: "grep", Arguments: `{"pattern":"oldName"}`}},
			Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 40, CachedTokens: 1024}},
		{Text: childAnswer, Usage: provider.Usage{PromptTokens: 1400, CompletionTokens: 30, CachedTokens: 1152}},
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash",
			Arguments: `{"command":"until [ -e ` + release + ` ]; do sleep 0.1; done; echo released"}`}}},
		{Text: steered},
		{Text: queuedRan},
	})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	modelURL := model.OpenAIBaseURL()
	if dialect == "anthropic" {
		modelURL = model.AnthropicBaseURL()
	}
	cfg := map[string]any{
		"suite": "queue", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": modelURL, "provider": dialect, "home": t.TempDir(), "workspace": workspace,
		"artifacts": hostileArtifacts(t, "queue-"+dialect), "file": "review.go", "timeoutMs": 30000,
		"prompt": prompt, "taskDescription": description, "taskPrompt": taskPrompt, "childAnswer": childAnswer,
		"childPattern": "oldName", "releaseFile": release, "queued": queued, "edited": edited, "steer": steer,
		"steeredAnswer": steered, "queuedAnswer": queuedRan,
	}
	sum := runScenario(t, peers, cfg) // it logs the steps and where the screenshots are
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	reqs := model.Requests()
	if len(reqs) != 6 {
		t.Fatalf("%d model requests, want 6", len(reqs))
	}
	for i, r := range reqs {
		if r.Rejected != "" {
			t.Errorf("request %d was rejected by the strict fake: %s", i, r.Rejected)
		}
	}
	if child := string(reqs[1].Body); strings.Contains(child, jsonText(prompt)) || !strings.Contains(child, jsonText(taskPrompt)) {
		t.Errorf("the child's request carries the parent's prompt, or not its own:\n%s", child)
	}
	after := string(reqs[4].Body)
	if result, at := strings.LastIndex(after, "released"), strings.LastIndex(after, jsonText(steer)); result < 0 || at < result {
		t.Errorf("the request after the command does not carry the steer after its result:\n%s", after)
	}
	if q := string(reqs[5].Body); !strings.Contains(q, jsonText(edited)) || strings.Contains(q, jsonText(queued)+`"`) {
		t.Errorf("the queued prompt's request does not carry its edited text:\n%s", q)
	}
}
