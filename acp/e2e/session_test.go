package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// What the scripted model does in every run. The file's unsaved buffer says
// "draft", its disk copy does not: an edit of "draft" succeeds only where
// the agent reads the editor's buffer. The command's output, term-42, is in
// no argument, so finding it in a later request proves the command ran.
const (
	notesDisk   = "status: on disk\n"
	notesBuffer = "status: draft (unsaved)\n"
	notesEdited = "status: final (unsaved)\n"
	bashCommand = "echo term-$((6*7))"
	bashOutput  = "term-42"
	answer      = "Marked the notes final; the command printed term-42 and the text has three words."
	afterAnswer = "Nothing to do in this mode."
)

// script is the fake model's side of session.mjs: the working prompt's
// five turns (read, edit, run, MCP tool, answer), the long answer that
// stalls until it is cancelled, the slow command cancelled while it runs
// (its prompt never reaches the model again), and the last prompt's answer.
func script() providertest.Script {
	call := func(id, name, args string) providertest.Turn {
		return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: name, Arguments: args}},
			Usage: provider.Usage{PromptTokens: 900, CompletionTokens: 30}}
	}
	return providertest.Script{
		call("call_read", "read_file", `{"path":"notes.txt"}`),
		call("call_edit", "edit_file", `{"path":"notes.txt","old_string":"draft","new_string":"final"}`),
		call("call_bash", "run_bash", `{"command":"`+bashCommand+`"}`),
		call("call_mcp", "mcp__demo__word_count", `{"text":"one two three"}`),
		{Text: answer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 25}},
		{Text: strings.Repeat("A long answer that streams until the user cancels it. ", 40),
			Fault: &providertest.Fault{Stall: providertest.Forever, StallAfterFrames: 6}},
		call("call_slow", "run_bash", `{"command":"sleep 30"}`),
		{Text: afterAnswer, Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 8}},
	}
}

// summary is the part of session.mjs's output the Go side checks.
type summary struct {
	OK         bool     `json:"ok"`
	Failures   []string `json:"failures"`
	Violations []string `json:"violations"`
	First      struct {
		Work struct {
			StopReason string     `json:"stopReason"`
			ToolCalls  []toolCall `json:"toolCalls"`
		} `json:"work"`
		Cancel struct {
			StopReason string  `json:"stopReason"`
			MS         float64 `json:"ms"`
		} `json:"cancel"`
		Slow struct {
			MS float64 `json:"ms"`
		} `json:"slow"`
		TerminalExits map[string]*struct {
			ExitCode *int    `json:"exitCode"`
			Signal   *string `json:"signal"`
		} `json:"terminalExits"`
		FirstChunkMS       float64                          `json:"firstChunkMs"`
		PermissionRequests []json.RawMessage                `json:"permissionRequests"`
		Reads              []struct{ Path string }          `json:"reads"`
		Writes             []struct{ Path, Content string } `json:"writes"`
		TerminalsCreated   []struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"terminalsCreated"`
		TerminalCalls []string        `json:"terminalCalls"`
		AllKinds      []string        `json:"allKinds"`
		Mode          json.RawMessage `json:"mode"`
		Model         json.RawMessage `json:"model"`
	} `json:"first"`
	Load struct {
		Kinds []string `json:"kinds"`
	} `json:"load"`
}

type toolCall struct {
	ToolCallID string            `json:"toolCallId"`
	Title      string            `json:"title"`
	Kind       string            `json:"kind"`
	Statuses   []string          `json:"statuses"`
	Content    []json.RawMessage `json:"content"`
}

// runSession runs session.mjs against a fresh agent and fake model and
// returns its summary, failing the test on any failed check or violation.
func runSession(t *testing.T, caps bool, dialect string, disk string) (summary, *providertest.Server, string) {
	t.Helper()
	node, dir := requireSDK(t)
	model := providertest.NewServer(t, script())
	root := workspace(t, map[string]string{"notes.txt": disk})
	logFile := filepath.Join(t.TempDir(), "agent-lsp.log")
	t.Cleanup(func() {
		if b, err := os.ReadFile(logFile); err == nil && t.Failed() {
			t.Logf("agent log:\n%s", tail(b, 80))
		}
	})
	baseURL := model.OpenAIBaseURL()
	if dialect == "anthropic" {
		baseURL = model.AnthropicBaseURL()
	}
	cfg, err := json.Marshal(map[string]any{
		"command": []string{agentBinary, "acp", "--provider", dialect, "--base-url", baseURL,
			"--api-key-env", "none", "--thinking=false", "--log-file", logFile},
		"root":      root,
		"caps":      caps,
		"buffers":   map[string]string{"notes.txt": notesBuffer},
		"mcpServer": map[string]any{"name": "demo", "command": agentBinary, "args": []string{"mcp-demo"}, "env": []any{}},
		"prompts": map[string]string{"work": "Mark the notes final, run the command, count the words.",
			"long": "Tell me a long story.", "slow": "Wait for the slow command.", "after": "Anything left?"},
		"expect": map[string]any{"answer": answer, "cancelWithinMs": 1000},
		// Ollama's preset needs no key; the model is switched after the
		// last prompt, so nothing is ever sent to it.
		"switchTo":  map[string]string{"mode": "plan", "model": "ollama"},
		"timeoutMs": 50000,
	})
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	out, runErr := runNode(t, 60*time.Second, node, dir, isolatedEnv(t), filepath.Join(dir, "session.mjs"), cfgPath)
	var sum summary
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("node: %v; stdout %q: %v", runErr, out, err)
	}
	if !sum.OK || runErr != nil {
		t.Fatalf("the SDK client failed (%v):\n  failures:\n    %s\n  protocol violations:\n    %s", runErr,
			strings.Join(sum.Failures, "\n    "), strings.Join(sum.Violations, "\n    "))
	}
	t.Logf("cancelled prompts answered %.1f ms (stream) and %.1f ms (command) after session/cancel", sum.First.Cancel.MS, sum.First.Slow.MS)
	return sum, model, root
}

// requestAfter is the body of the model request that answered callID's
// turn: the one carrying that call's result.
func requestAfter(t *testing.T, model *providertest.Server, callID string) []byte {
	t.Helper()
	for _, r := range model.Requests() {
		if r.Rejected == "" && bytes.Contains(r.Body, []byte(callID)) {
			return r.Body
		}
	}
	t.Fatalf("no model request carries %s", callID)
	return nil
}

// byKind finds the tool call of a kind in the working prompt.
func byKind(t *testing.T, calls []toolCall, kind string) toolCall {
	t.Helper()
	for _, c := range calls {
		if c.Kind == kind {
			return c
		}
	}
	t.Fatalf("no tool call of kind %s in %+v", kind, calls)
	return toolCall{}
}

func hasContent(c toolCall, typ string) bool {
	for _, raw := range c.Content {
		var b struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(raw, &b) == nil && b.Type == typ {
			return true
		}
	}
	return false
}

func checkCommonCalls(t *testing.T, sum summary, model *providertest.Server) {
	t.Helper()
	calls := sum.First.Work.ToolCalls
	if len(calls) != 4 {
		t.Errorf("%d tool calls, want 4: %+v", len(calls), calls)
	}
	for _, c := range calls {
		if n := len(c.Statuses); n == 0 || c.Statuses[n-1] != "completed" {
			t.Errorf("tool call %s (%s) went through %v, want to end completed", c.ToolCallID, c.Title, c.Statuses)
		}
	}
	if edit := byKind(t, calls, "edit"); !hasContent(edit, "diff") {
		t.Errorf("the edit's tool call has no diff content: %+v", edit)
	}
	byKind(t, calls, "read")
	if !bytes.Contains(requestAfter(t, model, "call_bash"), []byte(bashOutput)) {
		t.Errorf("the model never saw the command's output %q", bashOutput)
	}
	if !bytes.Contains(requestAfter(t, model, "call_mcp"), []byte("words: 3")) {
		t.Errorf("the model never saw the MCP tool's result")
	}
	if len(sum.First.PermissionRequests) == 0 {
		t.Errorf("no session/request_permission reached the client")
	}
	for _, k := range []string{"available_commands_update", "current_mode_update", "config_option_update", "usage_update"} {
		if !slices.Contains(sum.First.AllKinds, k) {
			t.Errorf("no %s among the session's updates %v", k, sum.First.AllKinds)
		}
	}
	if sum.First.Mode == nil || sum.First.Model == nil {
		t.Errorf("mode %s / model %s not switched", sum.First.Mode, sum.First.Model)
	}
}

// The editor's run: fs and terminal declared. Reads come from the unsaved
// buffer, the edit goes back into it (the disk is untouched), the command
// runs in a terminal the client spawned, and the slow one is killed there
// when its prompt is cancelled.
func TestSDKClientWithFSAndTerminal(t *testing.T) {
	sum, model, root := runSession(t, true, "openai", notesDisk)
	checkCommonCalls(t, sum, model)
	if !bytes.Contains(requestAfter(t, model, "call_read"), []byte("draft (unsaved)")) {
		t.Errorf("read_file did not read the unsaved buffer")
	}
	path := filepath.Join(root, "notes.txt")
	if len(sum.First.Reads) == 0 || sum.First.Reads[0].Path != path {
		t.Errorf("fs/read_text_file calls = %+v", sum.First.Reads)
	}
	if len(sum.First.Writes) != 1 || sum.First.Writes[0].Path != path || sum.First.Writes[0].Content != notesEdited {
		t.Errorf("fs/write_text_file calls = %+v", sum.First.Writes)
	}
	if disk, _ := os.ReadFile(path); string(disk) != notesDisk {
		t.Errorf("the file on disk changed to %q", disk)
	}
	// The client runs our binary as the sandbox stub, never the command
	// itself (terminal_test.go checks what the stub does).
	if n := len(sum.First.TerminalsCreated); n != 2 || sum.First.TerminalsCreated[0].Command != agentBinary ||
		len(sum.First.TerminalsCreated[0].Args) == 0 || sum.First.TerminalsCreated[0].Args[0] != "__sandbox-attach" {
		t.Errorf("terminal/create calls = %+v", sum.First.TerminalsCreated)
	}
	// The slow command's terminal: killed by the agent on cancel, then released.
	if ex := sum.First.TerminalExits["term-2"]; ex == nil || ex.Signal == nil || *ex.Signal != "SIGKILL" {
		t.Errorf("the cancelled command's terminal ended %+v, want killed", ex)
	}
	for _, m := range []string{"terminal/wait_for_exit", "terminal/kill", "terminal/release"} {
		if !strings.Contains(strings.Join(sum.First.TerminalCalls, " "), m) {
			t.Errorf("the agent never called %s: %v", m, sum.First.TerminalCalls)
		}
	}
	if exec := byKind(t, sum.First.Work.ToolCalls, "execute"); !hasContent(exec, "terminal") {
		t.Errorf("the command's tool call does not embed the terminal: %+v", exec)
	}
}

// No capabilities declared: the edit lands on disk and the command runs
// through the agent's own runner (any fs/ or terminal/ request would be a
// violation the script reports). The Anthropic dialect, for the other half.
func TestSDKClientWithoutCapabilities(t *testing.T) {
	sum, model, root := runSession(t, false, "anthropic", notesBuffer)
	checkCommonCalls(t, sum, model)
	if disk, _ := os.ReadFile(filepath.Join(root, "notes.txt")); string(disk) != notesEdited {
		t.Errorf("the file on disk is %q, want %q", disk, notesEdited)
	}
	if exec := byKind(t, sum.First.Work.ToolCalls, "execute"); hasContent(exec, "terminal") {
		t.Errorf("the command's tool call embeds a terminal the client never had: %+v", exec)
	}
}

// The script's own pieces (schema tap, terminals, buffers) and the whole
// scenario against a scripted SDK agent (fake_agent.mjs) under node --test:
// a tap that missed a violation would make the runs above prove nothing.
func TestClientPiecesUnderNodeTest(t *testing.T) {
	node, dir := requireSDK(t)
	out, err := runNode(t, 60*time.Second, node, dir, isolatedEnv(t), "--test", "tap.test.mjs", "editor.test.mjs", "session.test.mjs")
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, tail(out, 60))
	}
}
