package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The document the extension edits: its second line holds characters
// outside the BMP, so UTF-16 and UTF-8 columns differ after them.
const (
	docBefore = "package demo\n\n// héllo wörld 🎉 say ünïcode 🚀 twice: ünïcode\nfunc main() {}\n"
	docAfter  = "package demo\n\n// héllo wörld 🎉 say ÜNÏCODE 🚀 twice: ünïcode\nfunc main() {}\n"
	docEdit   = `{"path":"demo.go","old_string":"say ünïcode","new_string":"say ÜNÏCODE"}`
	selection = 2 // the line the inline edit selects (0-based)

	editPrompt   = "Shout the first ünïcode."
	editAnswer   = "Shouted the first `ünïcode`; the second is left as it was."
	stallPrompt  = "Explain the file slowly."
	resumePrompt = "What did you change before?"
	resumeAnswer = "I changed `say ünïcode` to `say ÜNÏCODE` in demo.go."

	planPrompt = "Plan the tests for main."
	planAnswer = "The plan: read main, then add a test."
	askPrompt  = "Is @demo.go#L1-1 a main package? Compare @missing.go."
	askAnswer  = "I may only read in ask mode: it is package demo."
	plan1      = `{"items":[{"content":"Read main","status":"in_progress"},{"content":"Add a test","status":"pending"}]}`
	plan2      = `{"items":[{"content":"Read main","status":"completed"},{"content":"Add a test","status":"in_progress"}]}`

	// The review: three uses of oldName far enough apart to be three hunks.
	reviewSource   = "package demo\n\nfunc oldName() {}\n\n// a\n// b\n// c\n\nvar x = oldName\n\n// d\n// e\n// f\n\nvar y = oldName\n"
	reviewPrompt   = "Rename oldName."
	reviewAnswer   = "Renamed where you agreed."
	reviewFeedback = "keep the old name"
	renameArgs     = `{"path":"review.go","old_string":"oldName","new_string":"newName","replace_all":true}`
)

// summary is what out/e2e/protocolClient.js prints.
type summary struct {
	OK           bool              `json:"ok"`
	Failures     []string          `json:"failures"`
	SessionID    string            `json:"sessionId"`
	DocumentText string            `json:"documentText"`
	SavedText    string            `json:"savedText"`
	Kinds        []string          `json:"kinds"`
	ApplyEdits   []json.RawMessage `json:"applyEdits"`
	CancelMs     int               `json:"cancelMs"`
	Entries      []string          `json:"entries"`
	PlanRows     []string          `json:"planRows"`
	Review       struct {
		AfterReview string `json:"afterReview"`
		AfterRewind string `json:"afterRewind"`
	} `json:"review"`
}

// The extension's request sequence, with its own modules: initialize with
// the initializationOptions its settings mapping makes (the fake model's
// URL reaches the daemon only that way), newSession, an inline edit
// (agent/prompt with {uri, range}) asked as agent/approve (the client
// declares agentApprove alone), whose hunks are applied as "Show diff"
// does before Allow, applyEdit and the save of
// autoSave, sessions, tools, agent/cancel mid-stream, then a crash
// (SIGKILL) and a second daemon resuming the session by its id; there the
// control surface: agent/commands, agent/models, agent/setMode plan with
// todo_write's plan updates, agent/setMode ask with @mentions and a
// write_file call refused, and "/mode default" as a prompt. Then a third
// daemon for a client declaring agentReview and agentApprove, as the
// extension does: a rename with
// three hunks answered with the extension's review module (hunks 1 and 3
// kept, 2 rejected with feedback), and "Agent: Rewind…" (agent/checkpoints,
// agent/rewind) putting the file back.
func TestExtensionProtocolAgainstDaemon(t *testing.T) {
	node, ext := requireExtensionBuild(t)

	script := providertest.Script{
		{Reasoning: "The selection holds ünïcode twice; only the first one is to be shouted, so the old string must include \"say\".",
			ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file", Arguments: docEdit}},
			Usage:     provider.Usage{PromptTokens: 900, CompletionTokens: 40}},
		{Text: editAnswer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 25, CachedTokens: 896}},
		{Text: "The file declares package demo and an empty main function, which", Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 30},
			Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 3}},
		{Text: resumeAnswer, Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 20, CachedTokens: 1024}},
		// plan mode: two todo_write calls, then the answer.
		{ToolCalls: []providertest.Call{{ID: "call_plan1", Name: "todo_write", Arguments: plan1}}, Usage: provider.Usage{PromptTokens: 1300, CompletionTokens: 30}},
		{ToolCalls: []providertest.Call{{ID: "call_plan2", Name: "todo_write", Arguments: plan2}}, Usage: provider.Usage{PromptTokens: 1400, CompletionTokens: 30}},
		{Text: planAnswer, Usage: provider.Usage{PromptTokens: 1500, CompletionTokens: 15}},
		// ask mode: a model ignoring the tool list writes anyway.
		{ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file", Arguments: `{"path":"new.txt","content":"x\n"}`}},
			Usage: provider.Usage{PromptTokens: 1600, CompletionTokens: 20}},
		{Text: askAnswer, Usage: provider.Usage{PromptTokens: 1700, CompletionTokens: 15}},
		// the review client: one edit of three hunks, then the answer.
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file", Arguments: renameArgs}}, Usage: provider.Usage{PromptTokens: 800, CompletionTokens: 30}},
		{Text: reviewAnswer, Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 10}},
	}
	model := providertest.NewServer(t, script)
	root := t.TempDir()
	for name, text := range map[string]string{"demo.go": docBefore, "review.go": reviewSource} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	renamed := strings.ReplaceAll(reviewSource, "oldName", "newName")
	kept := strings.NewReplacer("func oldName", "func newName", "var y = oldName", "var y = newName").Replace(reviewSource)
	logFile := filepath.Join(t.TempDir(), "agent-lsp.log")
	t.Cleanup(func() {
		if b, err := os.ReadFile(logFile); err == nil && t.Failed() {
			t.Logf("daemon log:\n%s", tail(b, 60))
		}
	})
	htmlOut := os.Getenv("AGENT_LSP_VSCODE_HTML_OUT") // the chat page rendered outside VS Code, to look at
	cfg := map[string]any{
		// The flags name a model that cannot answer (another dialect, a
		// closed loopback port, an unset key variable): the fake model is
		// reached only when the settings' initializationOptions win.
		"command": []string{daemonBinary, "--provider", "anthropic", "--base-url", "http://127.0.0.1:9",
			"--api-key-env", "AGENT_LSP_E2E_UNSET_KEY", "--thinking=false", "--log-file", logFile},
		"root": root, "file": "demo.go", "originalText": docBefore, "expectedText": docAfter, "selectionLine": selection,
		"settings":   map[string]any{"provider": "openai", "baseUrl": model.OpenAIBaseURL(), "apiKeyEnv": "none", "model": "deepseek-flash"},
		"editPrompt": editPrompt, "expectAnswer": editAnswer, "stallPrompt": stallPrompt,
		"resumePrompt": resumePrompt, "expectResumeAnswer": resumeAnswer, "htmlOut": htmlOut, "timeoutMs": 40000,
		"planPrompt": planPrompt, "expectPlans": []json.RawMessage{planItems(t, plan1), planItems(t, plan2)},
		"askPrompt": askPrompt, "expectMentions": []string{"demo.go:attached", "missing.go:missing"},
		"reviewFile": "review.go", "reviewOriginal": reviewSource, "reviewProposed": renamed, "reviewExpected": kept,
		"reviewPrompt": reviewPrompt, "reviewToolCallId": "call_rename", "reviewKeep": []int{1, 3}, "reviewFeedback": reviewFeedback,
	}
	out, runErr := runNode(t, node, ext, cfg)
	var sum summary
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("node: %v; stdout %q: %v", runErr, out, err)
	}
	if !sum.OK || runErr != nil {
		t.Fatalf("protocol client failed (%v):\n  %s", runErr, strings.Join(sum.Failures, "\n  "))
	}

	// What the client saw, checked once more from here.
	wantEntries := []string{"prompt", "reasoning", "round", "tool", "text", "round", // the inline edit
		"prompt", "text", "round", "notice", // the cancelled prompt: what it read and wrote is counted
		"notice", "prompt", "text", "round", // the crash, the resumed session
		"setting", "prompt", "round", "tool", "round", "tool", "text", "round", // plan mode: two todo_write calls (the plan has its own view)
		"setting", "prompt", "mention", "mention", "round", "tool", "text", "round", // ask mode: mentions, the refused write
		"prompt", "setting", "command"} // the slash command /mode default
	if strings.Join(sum.Entries, " ") != strings.Join(wantEntries, " ") {
		t.Errorf("transcript entries %v, want %v", sum.Entries, wantEntries)
	}
	if sum.DocumentText != docAfter || sum.SavedText != docAfter {
		t.Errorf("document %q, saved %q", sum.DocumentText, sum.SavedText)
	}
	if disk, _ := os.ReadFile(filepath.Join(root, "demo.go")); string(disk) != docAfter {
		t.Errorf("autoSave: the file on disk is %q", disk)
	}
	if len(sum.ApplyEdits) != 1 || !strings.Contains(string(sum.ApplyEdits[0]), `"label":"agent: edit_file demo.go"`) {
		t.Errorf("applyEdit requests = %s", sum.ApplyEdits)
	}

	// What the model saw: the selection as context, the tool result, and
	// after the crash the whole conversation again.
	reqs := model.Requests()
	if len(reqs) != 11 {
		t.Fatalf("%d model requests, want 11", len(reqs))
	}
	first := string(reqs[0].Body)
	if !strings.Contains(first, "say ünïcode 🚀 twice") || !strings.Contains(first, "demo.go") {
		t.Errorf("the first request does not carry the selection: %s", first)
	}
	last := string(reqs[3].Body)
	for _, want := range []string{editPrompt, "call_edit", "Shouted the first", resumePrompt} {
		if !strings.Contains(last, jsonText(want)) {
			t.Errorf("the request after the restart lacks %q: %s", want, last)
		}
	}

	// What the modes offered the model: plan mode the read-only tools and
	// the plan, ask mode only the read-only ones; the mention's line went in.
	plan := []string{"read_file", "glob", "grep", "todo_write", "skill", "task"}
	ask := []string{"read_file", "glob", "grep", "skill", "task"} // the subagent tool is read-only: its children are asked for
	for i, want := range map[int][]string{
		3: {"read_file", "glob", "grep", "write_file", "edit_file", "run_bash", "todo_write", "web_fetch", "skill", "task"},
		4: plan, 5: plan, 6: plan,
		7: ask, 8: ask,
	} {
		if got := offeredTools(t, reqs[i].Body); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("request %d offers %v, want %v", i, got, want)
		}
	}
	for i, req := range reqs {
		if req.Rejected != "" {
			t.Errorf("request %d was rejected by the strict fake: %s", i, req.Rejected)
		}
	}
	if ask := string(reqs[7].Body); !strings.Contains(ask, "Attached demo.go (lines 1-1)") || !strings.Contains(ask, "package demo") {
		t.Errorf("the ask request lacks the mentioned line: %s", ask)
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Error("new.txt was written in ask mode")
	}
	// The review: the buffer held exactly hunks 1 and 3; the model's next
	// request reads which hunk did not land and the feedback; the rewind
	// put the file back (autoSave wrote each state to disk).
	if sum.Review.AfterReview != kept || sum.Review.AfterRewind != reviewSource {
		t.Errorf("review document %q, after the rewind %q", sum.Review.AfterReview, sum.Review.AfterRewind)
	}
	afterReview := string(reqs[10].Body)
	for _, want := range []string{"call_rename", "edited review.go only in part", "applied hunks 1, 3 of 3", "NOT applied: hunk 2 (line 9)", "User feedback: " + reviewFeedback} {
		if !strings.Contains(afterReview, jsonText(want)) {
			t.Errorf("the request after the review lacks %q: %s", want, afterReview)
		}
	}
	if disk, _ := os.ReadFile(filepath.Join(root, "review.go")); string(disk) != reviewSource {
		t.Errorf("review.go on disk after the rewind: %q", disk)
	}
	wantRows := []string{"pass-filled Read main", "sync~spin Add a test"}
	if strings.Join(sum.PlanRows, "|") != strings.Join(wantRows, "|") {
		t.Errorf("plan view rows %v, want %v", sum.PlanRows, wantRows)
	}
}

// offeredTools are the names of the tools a Chat Completions request offers.
func offeredTools(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v", err)
	}
	names := make([]string, 0, len(req.Tools))
	for _, tool := range req.Tools {
		names = append(names, tool.Function.Name)
	}
	return names
}

// planItems is the items array of a todo_write argument.
func planItems(t *testing.T, args string) json.RawMessage {
	t.Helper()
	var a struct {
		Items json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		t.Fatal(err)
	}
	return a.Items
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// requireExtensionBuild returns node and the extension's directory, after
// compiling the extension (tsc: a second, so the test runs the current
// sources). Without node or the npm packages (scripts/build-vscode) the test
// skips, or fails under CI.
func requireExtensionBuild(t *testing.T) (node, ext string) {
	t.Helper()
	missing := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf(format+" (scripts/build-vscode installs it)", args...)
		}
		t.Skipf(format+" (run scripts/build-vscode)", args...)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed: %v", err)
	}
	ext, err = filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"typescript", "vscode-jsonrpc"} {
		if _, err := os.Stat(filepath.Join(ext, "node_modules", pkg, "package.json")); err != nil {
			missing("the extension's npm packages are not installed: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tsc := exec.CommandContext(ctx, node, filepath.Join(ext, "node_modules", "typescript", "bin", "tsc"), "-p", ext)
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, out)
	}
	return node, ext
}

// runNode runs the compiled protocol client with cfg in an isolated home
// (the daemons store the session under its XDG_STATE_HOME) and returns its
// stdout.
func runNode(t *testing.T, node, ext string, cfg map[string]any) ([]byte, error) {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8",
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(ext, "out", "e2e", "protocolClient.js"), cfgPath)
	cmd.Dir = ext
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("node stderr:\n%s", tail(stderr.Bytes(), 40))
	}
	if ctx.Err() != nil {
		err = fmt.Errorf("node did not finish within 60s: %w", err)
	}
	return stdout.Bytes(), err
}

// tail keeps the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
