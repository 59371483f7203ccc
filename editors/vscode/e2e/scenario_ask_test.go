package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The java answer of steps_code.mjs: a fenced java block and a
// Hello.java:3 link; Insert puts the block at line 3's start, Apply
// (nothing selected) proposes the whole file as the block.
const (
	javaPrompt = "Show me a Java hello world."
	javaFile   = "Hello.java"
	javaSource = "// line 1\n// line 2\n// line 3\n"
	javaCode   = "public class Hello {\n    public static void main(String[] args) {\n        System.out.println(\"hello\");\n    }\n}\n"
	javaAnswer = "Put it in Hello.java:3 or anywhere:\n\n```java\n" + javaCode + "```\n"
)

// Inline questions answered inline and a rewind the open chat shows
// (issue 25, items 4 and 10; scenario/lib/steps_ask.mjs): Alt+I on line 3
// of review.go with the chat never opened; the answer is read in a zone
// under the line, rendered; the chat then shows the prompt, and a rewind
// that truncates the conversation removes it from the open chat. Then a
// java answer's block and link in use (steps_code.mjs).
func TestCodeServerInlineAsk(t *testing.T) {
	peers := requireScenario(t)
	const (
		question = "Why is this function empty?"
		answer   = "It is a **placeholder**: `oldName` is only referenced, never called. That is all."
	)
	model := providertest.NewServer(t, providertest.Script{{Text: answer}, {Text: javaAnswer}})
	workspace := t.TempDir()
	for name, text := range map[string]string{"review.go": reviewSource, javaFile: javaSource} {
		if err := os.WriteFile(filepath.Join(workspace, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := map[string]any{
		"suite": "ask", "node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": hostileArtifacts(t, "ask"), "file": "review.go", "timeoutMs": 20000,
		"askLine": 3, "askQuestion": question, "askAnswerEnd": "That is all.", "askStrong": "placeholder", "askCode": "oldName",
		"javaPrompt": javaPrompt, "javaFile": javaFile, "javaSource": javaSource, "javaCode": javaCode,
	}
	sum := runScenario(t, peers, cfg) // it logs the steps and where the screenshots are
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}
	reqs := model.Requests()
	// Insert and Apply are the editor's: only the two prompts reach the model.
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if r.Rejected != "" {
			t.Errorf("request %d was rejected by the strict fake: %s", i, r.Rejected)
		}
	}
	// The question carries the line it was asked on.
	for _, want := range []string{question, "func oldName() {}"} {
		if !strings.Contains(string(reqs[0].Body), jsonText(want)) {
			t.Errorf("the question's request lacks %q: %s", want, reqs[0].Body)
		}
	}
}
