//go:build linux

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func bashCall(command string) providertest.Call {
	b, _ := json.Marshal(map[string]any{"command": command})
	return providertest.Call{Name: "run_bash", Arguments: string(b)}
}

// The chat runs commands in the sandbox: a write outside the workspace
// fails and the model reads why.
func TestChatSandboxBlockedWrite(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(t.TempDir(), "escape.txt")
	srv := providertest.NewServer(t, providertest.Script{
		{ToolCalls: []providertest.Call{bashCall("echo pwned > " + target)}},
		{Text: "Could not."},
	}, providertest.WithAPIKey("k-test"))
	t.Setenv(testKeyEnv, "k-test")
	code, stdout, stderr := runChatCmd(t, "", "--yes", "--no-save", "--base-url", srv.OpenAIBaseURL(),
		"--api-key-env", testKeyEnv, "--dir", root, "-p", "Write it.")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("%s was written: %v", target, err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	results := toolResultTexts(t, reqs[1])
	if len(results) != 1 || !strings.Contains(results[0], "blocked by the sandbox: write outside the workspace: "+target) {
		t.Errorf("tool results %q: want the sandbox's refusal", results)
	}
}

// Without Landlock the chat says so on its progress output, once, and
// runs commands under approvals only.
func TestChatSandboxUnavailableBanner(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "Hi."}}, providertest.WithAPIKey("k-test"))
	t.Setenv(testKeyEnv, "k-test")
	t.Setenv(envForceNoSandbox, "1")
	code, stdout, stderr := runChatCmd(t, "", "--no-save", "--base-url", srv.OpenAIBaseURL(),
		"--api-key-env", testKeyEnv, "--dir", t.TempDir(), "-p", "Hello")
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if n := strings.Count(stderr, "sandbox unavailable"); n != 1 || !strings.Contains(stderr, "approvals only") {
		t.Errorf("stderr says 'sandbox unavailable' %d times, want once with what happens instead:\n%s", n, stderr)
	}
	if strings.Contains(stdout, "sandbox") {
		t.Errorf("the banner went to stdout (the answer's) in one-shot mode:\n%s", stdout)
	}
}

// A command's process dies with the chat: the chat as a process of its
// own runs `sleep` through run_bash (sandboxed and not), is killed with
// SIGKILL (no chance to clean up), and the sleep is gone soon after
// (Pdeathsig on the thread that started it; the sandbox's PID namespace).
func TestChatKilledTakesItsCommandAlong(t *testing.T) {
	for _, mode := range []string{"workspace-write", "off"} {
		t.Run(mode, func(t *testing.T) {
			marker := fmt.Sprintf("300.%d%d", os.Getpid(), time.Now().UnixNano()%1000000)
			srv := providertest.NewServer(t, providertest.Script{
				{ToolCalls: []providertest.Call{bashCall("sleep " + marker)}},
				{Text: "Slept."},
			}, providertest.WithAPIKey("k-test"))
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "chat", "--yes", "--no-save", "--sandbox", mode,
				"--base-url", srv.OpenAIBaseURL(), "--api-key-env", testKeyEnv, "--dir", t.TempDir(), "-p", "Sleep.")
			cmd.Env = append(os.Environ(), envRunMain+"=1", testKeyEnv+"=k-test", "XDG_STATE_HOME="+t.TempDir())
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { // drain, so the chat never blocks on a full pipe
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
				}
			}()
			pid := waitForProcess(t, "sleep\x00"+marker+"\x00", 15*time.Second)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			wctx, wcancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer wcancel()
			if err := await.Exit(wctx, pid); err != nil {
				_ = syscall.Kill(pid, syscall.SIGKILL) // ours: do not leave it behind
				t.Fatalf("the command (pid %d) outlived the killed chat: %v", pid, err)
			}
		})
	}
}

// waitForProcess waits for a process running cmdline (NUL-separated) to
// show in /proc.
func waitForProcess(t *testing.T, cmdline string, within time.Duration) int {
	t.Helper()
	pid := 0
	await.Poll(t, within, fmt.Sprintf("a process running %q", cmdline), func() bool {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			n, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(b) == cmdline {
				pid = n
				return true
			}
		}
		return false
	})
	return pid
}
