package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// pipeRW joins a process's stdout and stdin into one connection.
type pipeRW struct {
	io.Reader
	io.Writer
	closers []io.Closer
}

func (p pipeRW) Close() error {
	for _, c := range p.closers {
		_ = c.Close()
	}
	return nil
}

// The LSP daemon over stdio, as an editor starts it: the key variables the
// flags and the editor's initializationOptions name (both unusual names),
// a variable only an initializationOptions MCP entry references, and
// well-known credentials reach no run_bash child, neither in its own
// environment nor through /proc/$PPID/environ, nor the log or the
// session files. With the sandbox off (a machine without Landlock) the
// child reads the daemon's wiped environ; with it on, the daemon is not in
// the command's PID namespace at all.
func TestDaemonSecretsReachNoChildFileOrLog(t *testing.T) {
	for _, sandboxed := range []bool{false, true} {
		t.Run(map[bool]string{false: "sandbox off", true: "sandboxed"}[sandboxed], func(t *testing.T) {
			daemonSecretsCase(t, sandboxed)
		})
	}
}

func daemonSecretsCase(t *testing.T, sandboxed bool) {
	const editorKeyEnv, optionsMCPEnv = "ZQX_EDITOR_CREDS", "ZQX_OPTIONS_MCP"
	secrets := map[string]string{}
	for _, name := range []string{keyEnv, editorKeyEnv, optionsMCPEnv, githubEnv, awsEnv, deepseekEnv} {
		secrets[name] = "canary-" + strings.ToLower(strings.ReplaceAll(name, "_", "-")) + "-d43m0n"
	}
	bin := agentBinary(t)
	base := sharedDir(t)
	ws := mkdirShared(t, filepath.Join(base, "ws"))
	state := mkdirShared(t, filepath.Join(base, "state"))
	logFile := filepath.Join(base, "agent.log")
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{{Name: "run_bash", Arguments: `{"command":` + jsonString(envDumpCommand) + `}`}}},
		{Text: "Looked around."},
	}, providertest.WithAPIKey(secrets[editorKeyEnv]))

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--provider", "openai", "--base-url", srv.OpenAIBaseURL(),
		"--api-key-env", keyEnv, "--thinking=false", "--log-file", logFile, "--state-dir", state)
	cmd.Dir = base
	cmd.Env = lsptest.IsolatedEnv(t)
	for name, v := range secrets {
		cmd.Env = append(cmd.Env, name+"="+v)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ed := lsptest.Connect(ctx, pipeRW{Reader: stdout, Writer: stdin, closers: []io.Closer{stdin, stdout}}, lsptest.Handlers{})
	exited := false
	defer func() {
		if !exited {
			_ = cmd.Process.Kill()
			_ = ed.Close()
			_ = cmd.Wait()
		}
	}()

	options := map[string]any{
		"apiKeyEnv":   editorKeyEnv,
		"autoApprove": true,
		"mcpServers": map[string]any{"probe": map[string]any{
			"command": "sh", "args": []string{"-c", `exec "$0" mcp-demo`, bin},
			"env": map[string]string{"PROBE_SETTING": "${" + optionsMCPEnv + "}"},
		}},
	}
	if !sandboxed {
		options["sandbox"] = map[string]any{"mode": "off"}
	}
	if _, err := ed.Initialize(ctx, ws, lsptest.Capabilities{}, options); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, stderr.String())
	}
	var res struct {
		StopReason string `json:"stopReason"`
		Error      string `json:"error"`
	}
	if err := ed.Call(ctx, "agent/prompt", map[string]any{"prompt": "look around"}, &res); err != nil || res.StopReason != "end_turn" {
		t.Fatalf("agent/prompt: %v %+v", err, res)
	}
	if err := ed.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	_ = ed.Notify(ctx, "exit", nil)
	_ = ed.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("daemon exit: %v\nstderr:\n%s", err, stderr.String())
	}
	exited = true

	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want 2", len(reqs))
	}
	for _, req := range reqs {
		if req.Rejected != "" {
			t.Errorf("the fake refused a request: %s", req.Rejected)
		}
		assertNoCanary(t, secrets, "a request body the model received", req.Body)
	}
	seen, err := os.ReadFile(filepath.Join(ws, "seen-by-child.txt"))
	if err != nil {
		t.Fatal(err)
	}
	assertNoCanary(t, secrets, "what the child saw", seen)
	child, parent, ok := strings.Cut(string(seen), "==parent==")
	if !ok || !strings.Contains(child, "PATH=") {
		t.Fatalf("the command did not run as scripted:\n%s", seen)
	}
	for name := range secrets {
		if strings.Contains(child, name+"=") {
			t.Errorf("the child's environment has %s", name)
		}
		if !sandboxed && os.Geteuid() == 0 && !strings.Contains(parent, "\n"+name+"=") {
			t.Errorf("the parent's environ was not read (no %s entry)", name)
		}
	}
	if sandboxed && strings.Contains(parent, "=") {
		t.Errorf("a sandboxed child read an environ through $PPID:\n%s", parent)
	}
	for name, data := range readTree(t, state) {
		assertNoCanary(t, secrets, "session file "+name, data)
	}
	logData, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	assertNoCanary(t, secrets, "the log file", logData)
	assertNoCanary(t, secrets, "stderr", []byte(stderr.String()))
}
