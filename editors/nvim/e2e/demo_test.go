package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// The walkthrough's file and the model's edit of it: capitalising the
// greeting changes greet's comment (line 5), its return (line 7) and the
// output comment in main (line 11), three hunks for the review float.
const (
	demoMain = "package main\n\nimport \"fmt\"\n\n" +
		"// greet returns \"hello \" followed by name.\n" +
		"func greet(name string) string {\n\treturn \"hello \" + name\n}\n\n" +
		"func main() {\n\tfmt.Println(greet(\"wörld\")) // hello wörld\n}\n"
	demoOld = "// greet returns \"hello \" followed by name.\n" +
		"func greet(name string) string {\n\treturn \"hello \" + name\n}\n\n" +
		"func main() {\n\tfmt.Println(greet(\"wörld\")) // hello wörld"
	demoNew = "// greet returns \"Hello, \" followed by name and \"!\".\n" +
		"func greet(name string) string {\n\treturn \"Hello, \" + name + \"!\"\n}\n\n" +
		"func main() {\n\tfmt.Println(greet(\"wörld\")) // Hello, wörld!"
)

// demoPush is the command the model wants to run when asked to commit and
// push: the force push makes it HIGH, with a reason, for the approval float.
const demoPush = "git commit -am 'Capitalise the greeting' && git push --force"

// demoEdit is the model's edit_file call's arguments, as JSON.
func demoEdit(t *testing.T) string {
	t.Helper()
	raw, err := json.Marshal(struct {
		Path      string `json:"path"`
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	}{"main.go", demoOld, demoNew})
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// TestServeDemoModel serves the scripted model of the README's walkthrough
// for a manual run of the plugin (the screenshots were taken so): with
// AGENT_LSP_NVIM_DEMO=<dir> it writes the walkthrough's file to
// <dir>/workspace/main.go and the fake's base URL to <dir>/base_url, and
// blocks until <dir>/stop exists (at most 15 minutes); without it, it
// skips. The model must be asked in the walkthrough's order: "Explain
// greet", then an inline prompt on greet, whose edit is reviewed with its
// third hunk rejected (the model's answer says so), then an inline
// question on greet, answered in words, then a chat prompt to commit and
// push, whose command (demoPush) is denied at the approval.
func TestServeDemoModel(t *testing.T) {
	dir := os.Getenv("AGENT_LSP_NVIM_DEMO")
	if dir == "" {
		t.Skip("set AGENT_LSP_NVIM_DEMO=<dir> to serve the walkthrough's model")
	}
	model := providertest.NewServer(t, providertest.Script{
		{Reasoning: "The user asks about greet. I should read main.go before answering.",
			ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"main.go"}`}},
			Usage:     provider.Usage{PromptTokens: 2150, CompletionTokens: 48}},
		{Text: "`greet` builds a greeting by joining \"hello \" and the name:\n\n" +
			"    greet(\"wörld\") == \"hello wörld\"\n\n" +
			"main prints the greeting for \"wörld\". The greeting is lower case and has no punctuation.",
			Usage: provider.Usage{PromptTokens: 2390, CompletionTokens: 61, CachedTokens: 2048}},
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: demoEdit(t)}},
			Usage: provider.Usage{PromptTokens: 2620, CompletionTokens: 130, CachedTokens: 2304}},
		{Text: "Done: greet and its comment now say \"Hello, <name>!\"; main's output comment stays as you chose.",
			Usage: provider.Usage{PromptTokens: 2860, CompletionTokens: 24, CachedTokens: 2560}},
		// An inline question on greet, answered in words (shown in a float).
		{Text: "`greet` returns `\"Hello, \" + name + \"!\"`:\n\n    greet(\"wörld\") == \"Hello, wörld!\"\n\nIt has no side effects.",
			Usage: provider.Usage{PromptTokens: 3010, CompletionTokens: 35, CachedTokens: 2816}},
		// A chat prompt to commit and push: a command rated HIGH (a force
		// push), asked with agent/approve and denied.
		{ToolCalls: []providertest.Call{{ID: "call_push", Name: "run_bash", Arguments: `{"command":"` + demoPush + `"}`}},
			Usage: provider.Usage{PromptTokens: 3160, CompletionTokens: 42, CachedTokens: 2944}},
		{Text: "Nothing ran: you denied the commit and the force push. A plain `git push` adds the commit without rewriting the remote's history.",
			Usage: provider.Usage{PromptTokens: 3290, CompletionTokens: 30, CachedTokens: 3072}},
	}, providertest.WithDeltaSize(6))
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte(demoMain), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base_url"), []byte(model.OpenAIBaseURL()), 0o644); err != nil {
		t.Fatal(err)
	}
	// A person creates the stop file, outside the test: polled. Fifteen
	// minutes without it is not a failure, just the end of the session.
	await.Polled(15*time.Minute, func() bool {
		_, err := os.Stat(filepath.Join(dir, "stop"))
		return err == nil
	})
}

// The walkthrough promises a review float with three hunks at lines 5, 7
// and 11; the demo's edit must still produce exactly those.
func TestDemoEditHasThreeHunks(t *testing.T) {
	if strings.Count(demoMain, demoOld) != 1 {
		t.Fatalf("the demo edit's old_string occurs %d times in the demo file, want once", strings.Count(demoMain, demoOld))
	}
	hunks := tools.EditHunks(demoMain, strings.Replace(demoMain, demoOld, demoNew, 1))
	var lines []int
	for _, h := range hunks {
		lines = append(lines, h.StartLine)
	}
	if want := []int{5, 7, 11}; !slices.Equal(lines, want) {
		t.Fatalf("demo edit hunks start at lines %v, want %v", lines, want)
	}
}

// The walkthrough promises an approval float with the reasons of a HIGH
// rating (and no "Allow for this session"); the demo's command must still
// be rated so.
func TestDemoPushIsHighRisk(t *testing.T) {
	a := permission.AssessShell(demoPush, []string{"/work/demo"}, "/home/demo")
	if a.Risk != permission.High || len(a.Reasons) == 0 {
		t.Fatalf("AssessShell(%q) = %v with reasons %q, want HIGH with a reason", demoPush, a.Risk, a.Reasons)
	}
}
