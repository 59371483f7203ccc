//go:build linux

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The three front ends of the real binary, each driven the way its users
// drive it, as lab.acct, to run one prompt of the scripted model to its
// end: the LSP daemon (lsp/lsptest over stdio), `agent-lsp chat -p` (one
// shot, --yes) and `agent-lsp acp` (the ACP SDK's Node client). Every
// approval is yes: what stands between a command and the machine is the
// sandbox alone.

// frontEnd runs text as one prompt through a front end, with the default
// sandbox settings, and returns what the agent wrote on stderr.
type frontEnd struct {
	name   string
	prompt func(t *testing.T, lab *attackLab, srv *providertest.Server, text string) string
}

// checkTempDirsGone fails when the agent, now exited, left anything in its
// temp dir (the sandbox's private TMPDIR is removed when the agent ends).
func (lab *attackLab) checkTempDirsGone(t *testing.T) {
	t.Helper()
	entries, err := os.ReadDir(lab.tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("the agent left %s in its temp dir", filepath.Join(lab.tmp, e.Name()))
	}
}

var frontEnds = []frontEnd{
	{"daemon", promptDaemon},
	{"chat", promptChat},
	{"acp", promptACP},
}

// scriptedModelFlags are the flags every front end gets: the scripted model and
// the lab's log.
func scriptedModelFlags(lab *attackLab, srv *providertest.Server) []string {
	return []string{"--provider", "openai", "--base-url", srv.OpenAIBaseURL(), "--api-key-env", attackKeyEnv,
		"--thinking=false", "--log-file", lab.logFile}
}

func promptDaemon(t *testing.T, lab *attackLab, srv *providertest.Server, text string) string {
	t.Helper()
	d := startAttackDaemon(t, lab, srv, &popupLog{choose: mostPermissive}, nil)
	d.prompt(t, text)
	d.exit(t)
	return d.stderr.String()
}

func promptChat(t *testing.T, lab *attackLab, srv *providertest.Server, text string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lab.acct.own(t, lab.base)
	args := append([]string{"chat", "--yes", "--no-save", "--dir", lab.ws}, scriptedModelFlags(lab, srv)...)
	args = append(args, "-p", text)
	cmd := lab.acct.command(ctx, lab.bin, args...)
	cmd.Dir = lab.ws
	cmd.Env = lab.env
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if _, err := cmd.Output(); err != nil {
		t.Fatalf("agent-lsp chat as %s: %v\n%s", lab.acct, err, lsptest.Tail(stderr.Bytes(), 40))
	}
	return stderr.String()
}

func promptACP(t *testing.T, lab *attackLab, srv *providertest.Server, text string) string {
	t.Helper()
	stderr, _ := runACPClient(t, lab, srv, text, "allow_once", "--yes")
	return stderr
}

// runACPClient runs the prompt through the Node client, which answers
// every permission request with the option of kind answer; it returns
// the agent's stderr and the titles of the permission requests.
func runACPClient(t *testing.T, lab *attackLab, srv *providertest.Server, text, answer string, flags ...string) (string, []string) {
	t.Helper()
	node := lsptest.RequirePeer(t, "node")
	dir, err := filepath.Abs(filepath.Join("..", "..", "acp", "e2e", "node"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("@agentclientprotocol/sdk is not installed (scripts/install-test-peers installs it): %v", err)
		}
		t.Skipf("@agentclientprotocol/sdk is not installed (run scripts/install-test-peers): %v", err)
	}
	lab.acct.own(t, lab.base)
	// The client runs as the test's user; the agent it starts, as the
	// account (an editor and its agent are the same user's; what matters
	// here is who the agent and its commands are).
	argv := append(append([]string{lab.bin, "acp", "--no-save"}, flags...), scriptedModelFlags(lab, srv)...)
	if lab.acct.switched() {
		argv = append([]string{lab.acct.setpriv}, lab.acct.argv(argv[0], argv[1:]...)...)
	}
	cfg, err := json.Marshal(map[string]any{"command": argv, "root": lab.ws, "prompt": text, "answer": answer, "timeoutMs": 110000})
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(lab.base, "acp-config.json")
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	// The client passes the agent's stderr through: it is checked for
	// secrets with the rest, so it is kept here rather than logged.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "prompt.mjs"), cfgPath)
	cmd.Dir = dir
	cmd.Env = lab.env
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, runErr := cmd.Output()
	var sum struct {
		OK         bool     `json:"ok"`
		Failures   []string `json:"failures"`
		Violations []string `json:"violations"`
		Titles     []string `json:"permissionTitles"`
	}
	if err := json.Unmarshal(out, &sum); err != nil || !sum.OK || runErr != nil {
		t.Fatalf("the ACP client (agent as %s): %v\nstdout: %s\nstderr:\n%s\n  failures:\n    %s\n  protocol violations:\n    %s",
			lab.acct, runErr, out, lsptest.Tail(stderr.Bytes(), 40), strings.Join(sum.Failures, "\n    "), strings.Join(sum.Violations, "\n    "))
	}
	return stderr.String(), sum.Titles
}
