package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The client's terminal runs what the agent asks with the user's shell
// environment: these must never reach a command (nor, through its output,
// the model). The first looks secret to the agent's own scrub, the second
// does not: only dropping the client's environment altogether keeps it out.
const (
	clientCredential = "canary-aws-secret-7f3e91"
	clientVariable   = "canary-client-only-5b21c0"
	sshKey           = "canary-ssh-key-3c9d44"
	slowMarker       = "30.0417" // in the slow command's line: `sleep 30.0417`
)

// terminalRun is what terminal.mjs reports.
type terminalRun struct {
	OK               bool              `json:"ok"`
	Failures         []string          `json:"failures"`
	Violations       []string          `json:"violations"`
	TerminalsCreated []json.RawMessage `json:"terminalsCreated"`
	Shown            map[string]string `json:"shown"`
	Exits            map[string]*struct {
		ExitCode *int    `json:"exitCode"`
		Signal   *string `json:"signal"`
	} `json:"exits"`
	PermissionTitles []string `json:"permissionTitles"`
	ToolTitles       []string `json:"toolTitles"`
	SlowStopReason   string   `json:"slowStopReason"`
	Survivors        []string `json:"survivors"`
	Environs         []string `json:"environs"`
}

// terminalLab is a workspace, a home with a secret key and a directory
// outside the workspace, owned by uid (so that an unprivileged run can use
// them).
type terminalLab struct {
	base, root, home, outside string
	env                       []string
}

func newTerminalLab(t *testing.T, uid int) *terminalLab {
	t.Helper()
	base, err := os.MkdirTemp("", "agent-lsp-acpterm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	lab := &terminalLab{base: base, root: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), outside: filepath.Join(base, "outside")}
	files := map[string]string{
		filepath.Join(lab.home, ".ssh", "id_rsa"): sshKey + "\n",
		filepath.Join(lab.root, "main.go"):        "package main\n",
		filepath.Join(lab.outside, "keep.txt"):    "outside\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	lab.env = []string{"HOME=" + lab.home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	for _, d := range []string{"CONFIG_HOME", "DATA_HOME", "STATE_HOME", "CACHE_HOME"} {
		dir := filepath.Join(lab.home, ".xdg-"+strings.ToLower(d))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		lab.env = append(lab.env, "XDG_"+d+"="+dir)
	}
	if err := filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	}); err != nil {
		t.Fatal(err)
	}
	return lab
}

// attackScript is the model's side: one command a round, then an answer,
// then (for the cancel) the slow command and the last answer.
func attackScript(lab *terminalLab) providertest.Script {
	call := func(id, command string) providertest.Turn {
		args, _ := json.Marshal(map[string]string{"command": command})
		return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: string(args)}},
			Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 10}}
	}
	return providertest.Script{
		call("call_env", "env; echo uid=$(id -u); tr \"\\\\0\" \"\\\\n\" < /proc/$PPID/environ; echo env-done"),
		call("call_write", "echo pwned > "+filepath.Join(lab.outside, "pwned.txt")),
		call("call_ssh", "cat "+filepath.Join(lab.home, ".ssh", "id_rsa")),
		call("call_exit", "echo live-$((6*7)); exit 7"),
		{Text: "done", Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 1}},
		call("call_slow", "sleep "+slowMarker),
		{Text: "after", Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 1}},
	}
}

// runTerminalClient runs terminal.mjs against the agent (bin) as the user
// asUser runs it with (nil: this process's user).
func runTerminalClient(t *testing.T, lab *terminalLab, bin string, model *providertest.Server, extra map[string]any, asUser []string) terminalRun {
	t.Helper()
	node, dir := requireSDK(t)
	logFile := filepath.Join(lab.base, "agent.log")
	t.Cleanup(func() {
		if b, err := os.ReadFile(logFile); err == nil && t.Failed() {
			t.Logf("agent log:\n%s", tail(b, 60))
		}
	})
	cfg := map[string]any{
		"command": []string{bin, "acp", "--provider", "openai", "--base-url", model.OpenAIBaseURL(),
			"--api-key-env", "none", "--thinking=false", "--log-file", logFile, "--sandbox-auto-allow"},
		"root":        lab.root,
		"terminalEnv": map[string]string{"AWS_SECRET_ACCESS_KEY": clientCredential, "ZQX_EDITOR_SESSION": clientVariable},
		"prompts":     map[string]string{"work": "Look around.", "slow": "Wait."},
		"slowCallId":  "call_slow",
		"slowMarker":  slowMarker,
		"timeoutMs":   50000,
	}
	for k, v := range extra {
		if k == "flags" {
			cfg["command"] = append(cfg["command"].([]string), v.([]string)...)
			continue
		}
		cfg[k] = v
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(lab.base, "config.json")
	if err := os.WriteFile(cfgPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append(append([]string(nil), asUser...), node, filepath.Join(dir, "terminal.mjs"), cfgPath)
	out, runErr := runNode(t, 60*time.Second, args[0], dir, lab.env, args[1:]...)
	var run terminalRun
	if err := json.Unmarshal(out, &run); err != nil {
		t.Fatalf("node: %v; stdout %q: %v", runErr, out, err)
	}
	if !run.OK || runErr != nil {
		t.Fatalf("the SDK client failed (%v):\n  failures:\n    %s\n  protocol violations:\n    %s", runErr,
			strings.Join(run.Failures, "\n    "), strings.Join(run.Violations, "\n    "))
	}
	return run
}

// resultOf is the tool result the model read for callID.
func resultOf(t *testing.T, model *providertest.Server, callID string) string {
	t.Helper()
	body := requestAfter(t, model, callID)
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("model request: %v", err)
	}
	for _, m := range req.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	t.Fatalf("no tool result for %s", callID)
	return ""
}

// A command the client runs in its terminal is the agent's stub, and what
// the stub runs is contained: the client's credentials and variables are
// not in its environment, it cannot write outside the workspace nor read
// ~/.ssh, the user's terminal shows its output, its exit code reaches the
// model, the request says it runs sandboxed in the terminal, and a cancel
// kills it.
func TestTerminalCommandsAreContained(t *testing.T) {
	testTerminalContained(t, agentBinary, os.Getuid(), nil)
}

// The same as an ordinary user (the AGENT_LSP_TEST_USER account .ci/run
// makes, or nobody), with the real binary where that user can run it.
func TestTerminalCommandsAreContainedAsNobody(t *testing.T) {
	bin, uid, asNobody := nobodyBinary(t)
	testTerminalContained(t, bin, uid, asNobody)
}

func testTerminalContained(t *testing.T, bin string, uid int, asUser []string) {
	lab := newTerminalLab(t, uid)
	model := providertest.NewServer(t, attackScript(lab))
	run := runTerminalClient(t, lab, bin, model, nil, asUser)

	for _, c := range run.TerminalsCreated {
		var tc struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		_ = json.Unmarshal(c, &tc)
		if tc.Command != bin || len(tc.Args) == 0 || tc.Args[0] != "__sandbox-attach" {
			t.Errorf("the client was asked to run %s %v, not the agent's stub", tc.Command, tc.Args)
		}
	}
	env := resultOf(t, model, "call_env")
	if !strings.Contains(env, "env-done") || !strings.Contains(env, "PATH=") {
		t.Fatalf("env did not run: %q", env)
	}
	if !strings.Contains(env, fmt.Sprintf("uid=%d\n", uid)) {
		t.Errorf("the command did not run as uid %d: %q", uid, env)
	}
	if log, err := os.ReadFile(filepath.Join(lab.base, "agent.log")); err == nil {
		for _, line := range strings.Split(string(log), "\n") {
			if strings.Contains(line, `"msg":"sandbox"`) {
				t.Logf("uid %d: %s", uid, line)
			}
		}
	}
	var shown strings.Builder
	for _, s := range run.Shown {
		shown.WriteString(s)
	}
	for _, secret := range []string{clientCredential, clientVariable, "AWS_SECRET_ACCESS_KEY", "ZQX_EDITOR_SESSION", sshKey} {
		for where, text := range map[string]string{"the model's requests": allRequests(model), "the user's terminal": shown.String()} {
			if strings.Contains(text, secret) {
				t.Errorf("%s reached %s", secret, where)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(lab.outside, "pwned.txt")); err == nil {
		t.Error("a command in the client's terminal wrote outside the workspace")
	}
	if r := resultOf(t, model, "call_write"); !strings.Contains(r, "blocked by the sandbox") {
		t.Errorf("the refused write is not explained: %q", r)
	}
	if r := resultOf(t, model, "call_ssh"); strings.Contains(r, "exit code 0") {
		t.Errorf("reading ~/.ssh succeeded: %q", r)
	}
	if r := resultOf(t, model, "call_exit"); !strings.Contains(r, "live-42") || !strings.Contains(r, "exit code 7") {
		t.Errorf("the exit code did not arrive: %q", r)
	}
	if !strings.Contains(shown.String(), "live-42") {
		t.Errorf("the user's terminal did not show the output: %q", shown.String())
	}
	// Sandboxed commands below HIGH run without asking
	// (--sandbox-auto-allow), as with the agent's own runner: only the
	// ~/.ssh read (HIGH) asks, and says where it runs.
	if len(run.PermissionTitles) == 0 || !slices.ContainsFunc(run.PermissionTitles, func(s string) bool {
		return strings.Contains(s, "sandboxed, in your terminal")
	}) {
		t.Errorf("permission requests %q do not say the command runs sandboxed in the terminal", run.PermissionTitles)
	}
	if !slices.ContainsFunc(run.PermissionTitles, func(s string) bool { return strings.Contains(s, ".ssh") }) ||
		slices.ContainsFunc(run.PermissionTitles, func(s string) bool { return strings.Contains(s, "live-") }) {
		t.Errorf("permission requests %q: want the ~/.ssh read asked and the harmless command not", run.PermissionTitles)
	}
	if !slices.ContainsFunc(run.ToolTitles, func(s string) bool { return strings.Contains(s, "(sandboxed, in your terminal)") }) {
		t.Errorf("tool call titles %q do not say where the command runs", run.ToolTitles)
	}
	// The stub got the client's environment; what /proc shows of it holds
	// none of it (wiped, or unreadable).
	if len(run.Environs) == 0 {
		t.Error("no running terminal's environment was read")
	}
	for _, e := range run.Environs {
		if strings.Contains(e, clientCredential) || strings.Contains(e, clientVariable) {
			t.Errorf("the stub's /proc/<pid>/environ shows the client's environment: %q", e)
		}
	}
	if run.SlowStopReason != "cancelled" || len(run.Survivors) > 0 {
		t.Errorf("the cancelled command: stop %q, still running: %v", run.SlowStopReason, run.Survivors)
	}
}

// A terminal that cannot run the agent's binary (remote, in a container):
// the agent runs the command itself, in its sandbox, and says so.
func TestTerminalThatCannotRunTheStubFallsBack(t *testing.T) {
	testFallback(t, agentBinary, os.Getuid(), nil)
}

// The same as an ordinary user.
func TestTerminalThatCannotRunTheStubFallsBackAsNobody(t *testing.T) {
	bin, uid, asNobody := nobodyBinary(t)
	testFallback(t, bin, uid, asNobody)
}

func testFallback(t *testing.T, bin string, uid int, asUser []string) {
	lab := newTerminalLab(t, uid)
	model := providertest.NewServer(t, attackScript(lab)[:5])
	runTerminalClient(t, lab, bin, model, map[string]any{"terminalOnly": "bash", "prompts": map[string]string{"work": "Look around."}}, asUser)
	r := resultOf(t, model, "call_exit")
	if !strings.Contains(r, "live-42") || !strings.Contains(r, "exit code 7") {
		t.Errorf("the command did not run: %q", r)
	}
	if !strings.Contains(r, "not run in your terminal") || !strings.Contains(r, "in its sandbox") {
		t.Errorf("the result does not say the agent ran the command itself: %q", r)
	}
	if _, err := os.Stat(filepath.Join(lab.outside, "pwned.txt")); err == nil {
		t.Error("the fallback wrote outside the workspace")
	}
}

// With the sandbox off, the client's terminal still runs the stub: the
// command gets the agent's scrubbed environment, never the client's, and
// the request says it is not sandboxed, and why.
func TestTerminalWithTheSandboxOff(t *testing.T) {
	lab := newTerminalLab(t, os.Getuid())
	model := providertest.NewServer(t, attackScript(lab)[:5])
	run := runTerminalClient(t, lab, agentBinary, model, map[string]any{"flags": []string{"--sandbox", "off"},
		"prompts": map[string]string{"work": "Look around."}}, nil)
	env := resultOf(t, model, "call_env")
	if !strings.Contains(env, "env-done") {
		t.Fatalf("env did not run: %q", env)
	}
	for _, secret := range []string{clientCredential, clientVariable} {
		if strings.Contains(allRequests(model), secret) {
			t.Errorf("%s reached the model", secret)
		}
	}
	if !slices.ContainsFunc(run.PermissionTitles, func(s string) bool {
		return strings.Contains(s, "NOT sandboxed (sandbox off") && strings.Contains(s, "without your credentials")
	}) {
		t.Errorf("permission requests %q do not say the command runs unsandboxed", run.PermissionTitles)
	}
}

// allRequests is every request the model received, as one text.
func allRequests(model *providertest.Server) string {
	var b bytes.Buffer
	for _, r := range model.Requests() {
		b.Write(r.Body)
	}
	return b.String()
}

// nobodyBinary copies the agent to a directory any user can enter and
// returns it with the ordinary user's uid and the setpriv prefix that runs
// a command as that user: the account AGENT_LSP_TEST_USER names (.ci/run
// makes it), or nobody. Under CI a missing setpriv or account fails.
func nobodyBinary(t *testing.T) (string, int, []string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to switch to an ordinary user (CI runs as root)")
	}
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal // a CI run that cannot switch proves nothing for ordinary users
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		skip("setpriv (util-linux) not installed")
	}
	uid, gid := 65534, 65534
	if name := os.Getenv("AGENT_LSP_TEST_USER"); name != "" {
		u, err := user.Lookup(name)
		if err != nil || u.Uid == "0" {
			skip(fmt.Sprintf("AGENT_LSP_TEST_USER=%s: not an ordinary account: %v", name, err))
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
	}
	dir, err := os.MkdirTemp("", "agent-lsp-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(agentBinary)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "agent-lsp")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, uid, []string{setpriv, fmt.Sprintf("--reuid=%d", uid), fmt.Sprintf("--regid=%d", gid), "--clear-groups", "--"}
}
