//go:build unix

package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/permission"
)

func bashEnv(t *testing.T) (*Env, string) {
	t.Helper()
	return newSearchEnv(t, nil)
}

func runBash(t *testing.T, ctx context.Context, env *Env, args map[string]any) (Result, error) {
	t.Helper()
	return callTool(t, ctx, NewRunBash(), env, args)
}

func TestRunBashExitCode(t *testing.T) {
	env, _ := bashEnv(t)
	tests := []struct {
		command string
		want    string
		isError bool
	}{
		{"echo hello", "hello\nexit code 0", false},
		{"echo out; echo err >&2; exit 3", "out\nerr\nexit code 3", true},
		{"true", "(no output)\nexit code 0", false},
		{"printf 'no newline'", "no newline\nexit code 0", false},
		{"kill -TERM $$", "(no output)\nterminated: signal: terminated", true},
		{"cat; echo done", "done\nexit code 0", false}, // stdin is /dev/null: cat ends at once
	}
	for _, tt := range tests {
		res, err := runBash(t, context.Background(), env, map[string]any{"command": tt.command})
		if err != nil {
			t.Fatalf("%q: %v", tt.command, err)
		}
		if res.Output != tt.want || res.IsError != tt.isError {
			t.Errorf("%q: got %q (IsError %v), want %q (IsError %v)", tt.command, res.Output, res.IsError, tt.want, tt.isError)
		}
	}
}

func TestRunBashWorkingDirectoryAndStdin(t *testing.T) {
	env, root := bashEnv(t)
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "pwd; readlink /proc/self/fd/0 || echo no-proc"})
	if err != nil {
		t.Fatal(err)
	}
	want := root + "\n/dev/null\nexit code 0"
	if _, err := os.Stat("/proc/self/fd/0"); err != nil {
		want = root + "\nno-proc\nexit code 0"
	}
	if res.Output != want {
		t.Errorf("got %q, want %q", res.Output, want)
	}
}

func TestRunBashOutputCapped(t *testing.T) {
	env, _ := bashEnv(t)
	// 200 KB of numbered lines: the head and tail survive, the middle not.
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "seq 1 40000; echo END"})
	if err != nil {
		t.Fatal(err)
	}
	out := res.Output
	if len(out) > bashMaxOutput+200 {
		t.Errorf("output is %d bytes, cap %d", len(out), bashMaxOutput)
	}
	if !strings.HasPrefix(out, "1\n2\n3\n") || !strings.HasSuffix(out, "39999\n40000\nEND\nexit code 0") {
		t.Errorf("head or tail lost: %q … %q", out[:20], out[len(out)-40:])
	}
	if !strings.Contains(out, "bytes of output omitted]") {
		t.Error("no omission note")
	}
}

func TestRunBashScrubsSecrets(t *testing.T) {
	t.Setenv("FOO_API_KEY", "sk-secret-1")
	t.Setenv("GITHUB_TOKEN", "ghp-secret-2")
	t.Setenv("DB_PASSWORD", "secret-3")
	t.Setenv("PLAIN_SETTING", "visible-value")
	env, _ := bashEnv(t)
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "env"})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"sk-secret-1", "ghp-secret-2", "secret-3", "FOO_API_KEY"} {
		if strings.Contains(res.Output, secret) {
			t.Errorf("child environment shows %q", secret)
		}
	}
	if !strings.Contains(res.Output, "PLAIN_SETTING=visible-value") {
		t.Error("ordinary variable missing from the child environment")
	}
}

// startedPid waits for a command to write a pid into file and returns it.
// Another process writes the file and nothing tells us when: polled.
func startedPid(t *testing.T, file string) int {
	t.Helper()
	pid := 0
	await.Poll(t, 10*time.Second, "a pid written to "+file, func() bool {
		data, err := os.ReadFile(file)
		s := strings.TrimSpace(string(data))
		if err != nil || s == "" {
			return false
		}
		if pid, err = strconv.Atoi(s); err != nil {
			t.Fatalf("pid file %q: %v", s, err)
		}
		return true
	})
	return pid
}

// waitGone waits for pid to be gone (await's rule: a zombie waiting for
// init to reap it counts) and kills it if it is not, so that a failing
// test leaves nothing behind.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := await.Exit(ctx, pid); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatal(err)
	}
}

// grandchildCommand starts sleep in a subshell (a grandchild of bash), has
// it write its pid, and waits for it.
func grandchildCommand(pidFile string) string {
	return "(sleep 300 & echo $! > " + pidFile + "; wait); echo never"
}

func TestRunBashTimeoutKillsGrandchildren(t *testing.T) {
	env, root := bashEnv(t)
	pidFile := filepath.Join(root, "pid")
	start := time.Now()
	res, err := runBash(t, context.Background(), env, map[string]any{"command": grandchildCommand(pidFile), "timeout_ms": 500})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("took %v for a 500ms timeout", elapsed)
	}
	if !res.IsError || !strings.HasSuffix(res.Output, "timed out after 500ms; process group killed") {
		t.Errorf("result %q (IsError %v)", res.Output, res.IsError)
	}
	waitGone(t, startedPid(t, pidFile))
}

func TestRunBashCancelKillsGrandchildren(t *testing.T) {
	env, root := bashEnv(t)
	pidFile := filepath.Join(root, "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := NewRunBash().Run(ctx, []byte(`{"command":"`+grandchildCommand(pidFile)+`"}`), env)
		done <- outcome{res, err}
	}()
	pid := startedPid(t, pidFile)
	cancel()
	if o := await.Event(t, done, "Run to return after cancel"); !errors.Is(o.err, context.Canceled) || !strings.Contains(o.res.Output, "cancelled; process group killed") {
		t.Errorf("result %q, error %v", o.res.Output, o.err)
	}
	waitGone(t, pid)
}

func TestRunBashKillsLeftoverBackgroundJobs(t *testing.T) {
	env, root := bashEnv(t)
	pidFile := filepath.Join(root, "pid")
	start := time.Now()
	// The background sleep keeps stdout open: without the group kill the
	// call would wait for it.
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "sleep 300 & echo $! > pid; echo started"})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > bashDrainGrace {
		t.Errorf("took %v", elapsed)
	}
	if res.Output != "started\nexit code 0" {
		t.Errorf("output %q", res.Output)
	}
	waitGone(t, startedPid(t, pidFile))
}

func TestRunBashDoesNotHangOnEscapedDescendant(t *testing.T) {
	if _, err := os.Stat("/usr/bin/setsid"); err != nil {
		t.Skip("setsid not installed")
	}
	env, root := bashEnv(t)
	pidFile := filepath.Join(root, "pid")
	start := time.Now()
	// setsid leaves the process group, so the group kill misses it and it
	// holds the output pipe open.
	res, err := runBash(t, context.Background(), env, map[string]any{
		"command": `setsid bash -c 'echo $$ > pid; exec sleep 300' & sleep 0.2; echo parent done`})
	if err != nil {
		t.Fatal(err)
	}
	pid := startedPid(t, pidFile)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	if elapsed := time.Since(start); elapsed > bashDrainGrace+3*time.Second {
		t.Errorf("took %v; the drain should give up after %v", elapsed, bashDrainGrace)
	}
	if !strings.Contains(res.Output, "parent done\nexit code 0") {
		t.Errorf("output %q", res.Output)
	}
}

func TestRunBashAppendsNotes(t *testing.T) {
	env, _ := bashEnv(t)
	env.Notes = func() string { return "note: main.go has unsaved changes in the editor" }
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "echo hi"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "hi\nexit code 0\nnote: main.go has unsaved changes in the editor" {
		t.Errorf("output %q", res.Output)
	}
}

func TestRunBashDescribe(t *testing.T) {
	env, _ := bashEnv(t)
	a, err := NewRunBash().Describe(t.Context(), []byte(`{"command":"git status"}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if a.ReadOnly || a.Tool != "run_bash" || a.Summary != "run: git status" || a.Command != "git status" || a.Scope != "run_bash:git status" {
		t.Errorf("action %+v", a)
	}
	a, err = NewRunBash().Describe(t.Context(), []byte(`{"command":"rm -rf /"}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Risk < permission.High || len(a.Reasons) == 0 || a.ReadOnly {
		t.Errorf("rm -rf /: action %+v", a)
	}
	a, err = NewRunBash().Describe(t.Context(), []byte(`{"command":"echo one\necho two"}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if a.Summary != `run: echo one\necho two` {
		t.Errorf("multi-line summary %q", a.Summary)
	}
}

func TestRunBashBadArguments(t *testing.T) {
	env, _ := bashEnv(t)
	tests := []struct {
		args string
		want string
	}{
		{`{}`, "missing required argument"},
		{`{"command":"  "}`, "command is empty"},
		{`{"command":"ls","timeout_ms":-5}`, "timeout_ms must be positive"},
		{`{"command":"ls","timeout":5}`, "timeout"},
		{`{"command":["ls"]}`, "command"},
	}
	for _, tt := range tests {
		if _, err := NewRunBash().Describe(t.Context(), []byte(tt.args), env); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to mention %q", tt.args, err, tt.want)
		}
	}
}

func TestRunBashTimeoutCappedNote(t *testing.T) {
	env, _ := bashEnv(t)
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "true", "timeout_ms": 99_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Output, "(timeout_ms 99000000 was capped at 600000)") {
		t.Errorf("output %q", res.Output)
	}
}
