package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The offline demo (scripts/demo) replays testdata/demo/session.jsonl: a
// real session recorded from the strict fake model with --record, never
// typed by hand. `go test ./cmd/agent-lsp -run Demo -update-demo` records
// it again.
var updateDemo = flag.Bool("update-demo", false, "record testdata/demo/session.jsonl again from the fake model")

const (
	demoRecording = "../../testdata/demo/session.jsonl"
	// demoDenied is the same session with the edit denied: the replay
	// answers from it once the user denies (--replay-denied).
	demoDenied  = "../../testdata/demo/session-denied.jsonl"
	demoFixture = "../../testdata/java-project"
	demoPrompt  = "How many .java files are in this project, and what does Calculator.add do? Then add a multiply method."
)

func demoScript() providertest.Script {
	return providertest.Script{
		{Reasoning: "Count the Java files with glob and look for add with grep, in parallel.",
			Text: "Let me look at the project.",
			ToolCalls: []providertest.Call{
				{Name: "glob", Arguments: `{"pattern":"**/*.java"}`},
				{Name: "grep", Arguments: `{"pattern":"int add\\(","glob":"**/*.java"}`},
			}, Usage: provider.Usage{PromptTokens: 1607, CompletionTokens: 92, CachedTokens: 1408}},
		{Reasoning: "Read Calculator.java to see add.",
			ToolCalls: []providertest.Call{{Name: "read_file", Arguments: `{"path":"src/main/java/demo/Calculator.java"}`}},
			Usage:     provider.Usage{PromptTokens: 1778, CompletionTokens: 44, CachedTokens: 1536}},
		{Reasoning: "Add multiply after subtract.",
			ToolCalls: []providertest.Call{{Name: "edit_file", Arguments: `{"path":"src/main/java/demo/Calculator.java","old_string":"        return a - b;\n    }\n","new_string":"        return a - b;\n    }\n\n    /** Returns a times b. */\n    public int multiply(int a, int b) {\n        return a * b;\n    }\n"}`}},
			Usage:     provider.Usage{PromptTokens: 1973, CompletionTokens: 91, CachedTokens: 1792}},
		{ToolCalls: []providertest.Call{{Name: "run_bash", Arguments: `{"command":"grep -c 'public int' src/main/java/demo/Calculator.java"}`}},
			Usage: provider.Usage{PromptTokens: 2120, CompletionTokens: 30, CachedTokens: 1920}},
		{Text: "There are 3 .java files (the build/ directory is ignored by .gitignore).\n\n" +
			"`Calculator.add(int a, int b)` returns the sum `a + b`.\n\n" +
			"I added `multiply(int a, int b)` returning `a * b`; Calculator now has 3 public int methods.",
			Usage: provider.Usage{PromptTokens: 2190, CompletionTokens: 60, CachedTokens: 2048}},
	}
}

// demoScriptDenied is demoScript up to the edit, which the user denies:
// the answer says so.
func demoScriptDenied() providertest.Script {
	return append(demoScript()[:3], providertest.Turn{
		Text: "There are 3 .java files (the build/ directory is ignored by .gitignore).\n\n" +
			"`Calculator.add(int a, int b)` returns the sum `a + b`.\n\n" +
			"You declined the edit, so Calculator.java is unchanged: it has no multiply method.",
		Usage: provider.Usage{PromptTokens: 2050, CompletionTokens: 55, CachedTokens: 1920}})
}

func TestDemoRecordingReplays(t *testing.T) {
	if *updateDemo {
		srv := providertest.NewServer(t, demoScriptDenied(), providertest.WithSeed(7))
		if err := os.Remove(demoDenied); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		code, stdout, stderr := runChatCmd(t, "n\n", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
			"--dir", copyTree(t, demoFixture), "--record", demoDenied, "-p", demoPrompt)
		if code != 0 {
			t.Fatalf("recording the denied run: exit %d\n%s\n%s", code, stdout, stderr)
		}
	}
	if *updateDemo {
		srv := providertest.NewServer(t, demoScript(), providertest.WithSeed(7))
		if err := os.Remove(demoRecording); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		root := copyTree(t, demoFixture)
		code, stdout, stderr := runChatCmd(t, "y\ny\n", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", "none",
			"--dir", root, "--record", demoRecording, "-p", demoPrompt)
		if code != 0 {
			t.Fatalf("recording run: exit %d\n%s\n%s", code, stdout, stderr)
		}
		for _, r := range srv.Requests() {
			if r.Rejected != "" {
				t.Fatalf("fake rejected a request while recording: %s", r.Rejected)
			}
		}
	}

	root := copyTree(t, demoFixture)
	// The ignored build output the fixture's .gitignore hides from glob.
	if err := os.MkdirAll(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "build", "Generated.java"), []byte("class Generated {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runChatCmd(t, "y\ny\n", "--replay", demoRecording, "--replay-denied", demoDenied, "--dir", root, "-p", demoPrompt)
	if code != 0 {
		t.Fatalf("replay: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "There are 3 .java files") {
		t.Errorf("replayed answer missing:\n%s", stdout)
	}
	for _, want := range []string{"⚙ glob", "⚙ grep", "⚙ read_file", "⚙ edit_file", "⚙ run_bash",
		"[y] allow", "[tokens: 9668 in (8704 cached), 317 out · cost $"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("replay progress lacks %q:\n%s", want, stderr)
		}
	}
	calc, err := os.ReadFile(filepath.Join(root, "src/main/java/demo/Calculator.java"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(calc), "public int multiply(int a, int b)") {
		t.Errorf("the replayed edit did not land:\n%s", calc)
	}
}

// Denying the demo's edit replays the branch recorded with it denied: the
// answer says the file is unchanged, and it is.
func TestDemoReplayFollowsADeniedEdit(t *testing.T) {
	root := copyTree(t, demoFixture)
	calcPath := filepath.Join(root, "src/main/java/demo/Calculator.java")
	before, err := os.ReadFile(calcPath)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runChatCmd(t, "n\n", "--replay", demoRecording, "--replay-denied", demoDenied, "--dir", root, "-p", demoPrompt)
	if code != 0 {
		t.Fatalf("replay: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "You declined the edit") || strings.Contains(stdout, "I added") {
		t.Errorf("the answer after a denied edit:\n%s", stdout)
	}
	if strings.Contains(stderr, "⚙ run_bash") {
		t.Errorf("the denied branch still ran the check:\n%s", stderr)
	}
	after, err := os.ReadFile(calcPath)
	if err != nil || string(after) != string(before) {
		t.Errorf("Calculator.java changed after a denied edit (%v):\n%s", err, after)
	}
}
