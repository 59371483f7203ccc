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

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// daemonBinary is the agent-lsp binary TestMain built for this run.
var daemonBinary string

// repoRoot is the module's root, from this package's directory.
var repoRoot = filepath.Join("..", "..", "..")

func TestMain(m *testing.M) {
	os.Exit(lsptest.RunWithDaemon(m, repoRoot, &daemonBinary))
}

// Shared with the daemon's end-to-end tests.
var (
	isolatedEnv = lsptest.IsolatedEnv
	workspace   = lsptest.Workspace
	tail        = lsptest.Tail
)

// eachNvim runs body once per Neovim version found, as subtest
// "nvim-<version>" (lsptest.RequireNvims: under CI 0.7, 0.10 and 0.12).
func eachNvim(t *testing.T, body func(t *testing.T, nvim lsptest.Nvim)) {
	t.Helper()
	lsptest.ForEachNvim(t, repoRoot, body)
}

// scenario is one run of a Lua scenario script in headless Neovim.
type scenario struct {
	nvim   lsptest.Nvim
	script string // file name under e2e/nvim
	root   string // the workspace, Neovim's cwd
	model  *providertest.Server
	config map[string]any // extra config for the script
}

// run runs the scenario to its end and decodes the report into rep. The
// daemon's log is shown when the test fails.
func (s scenario) run(t *testing.T, rep any) {
	t.Helper()
	plugin, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	scripts := filepath.Join(plugin, "e2e", "nvim")
	dir := t.TempDir()
	logFile := filepath.Join(dir, "agent-lsp.log")
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if b, err := os.ReadFile(logFile); err == nil {
			t.Logf("daemon log:\n%s", tail(b, 60))
		}
	})
	cfg := map[string]any{
		"command":    []string{daemonBinary, "--thinking=false", "--log-file", logFile},
		"base_url":   s.model.OpenAIBaseURL(),
		"root":       s.root,
		"report":     filepath.Join(dir, "report.json"),
		"timeout_ms": 30000,
	}
	for k, v := range s.config {
		cfg[k] = v
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(isolatedEnv(t), "E2E_CONFIG="+cfgPath, "E2E_HARNESS="+filepath.Join(scripts, "harness.lua"))

	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.nvim.Path, "--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE",
		"--cmd", "set rtp^="+plugin, "-c", "luafile "+filepath.Join(scripts, s.script))
	cmd.Dir = s.root
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("nvim stderr:\n%s", tail(stderr.Bytes(), 40))
	}
	if ctx.Err() != nil {
		runErr = fmt.Errorf("nvim did not finish: %w", runErr)
	}
	out, err := os.ReadFile(cfg["report"].(string))
	if err != nil {
		t.Fatalf("nvim (%v) wrote no report: %v", runErr, err)
	}
	var head struct {
		OK       bool     `json:"ok"`
		Failures []string `json:"failures"`
	}
	if err := json.Unmarshal(out, &head); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	if err := json.Unmarshal(out, rep); err != nil {
		t.Fatalf("report %s: %v", out, err)
	}
	if !head.OK || runErr != nil {
		t.Fatalf("nvim failed (%v):\n  %s\nreport: %s", runErr, strings.Join(head.Failures, "\n  "), out)
	}
}

// waitProcessGone fails the test when pid is still running (await's rule:
// a zombie counts as gone) after the wait.
func waitProcessGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	if pid <= 0 {
		t.Errorf("no daemon pid to check (%d)", pid)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := await.Exit(ctx, pid); err != nil {
		t.Errorf("the daemon, %v after Neovim exited: %v", within, err)
	}
}

// requestMessages decodes the messages of the model's i-th request.
func requestMessages(t *testing.T, model *providertest.Server, i int) []chatMessage {
	t.Helper()
	reqs := model.Requests()
	if len(reqs) <= i {
		t.Fatalf("%d model requests, want more than %d", len(reqs), i)
	}
	var body struct {
		Messages []chatMessage `json:"messages"`
	}
	if err := reqs[i].Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Messages
}

// chatMessage is a Chat Completions message, as the fake model received it.
type chatMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
}

func (m chatMessage) text() string {
	switch c := m.Content.(type) {
	case string:
		return c
	case nil:
		return ""
	default:
		b, _ := json.Marshal(c)
		return string(b)
	}
}
