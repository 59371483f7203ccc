//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools/sandbox"
)

// sandboxedEnv is a workspace whose commands run through a real sandbox.
func sandboxedEnv(t *testing.T, st sandbox.Settings) (*Env, string) {
	t.Helper()
	env, root := bashEnv(t)
	sb, err := sandbox.New(st, env.Workspace.Roots())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	env.Runner = NewProcessRunner(sb)
	return env, root
}

func describeBash(t *testing.T, env *Env, args map[string]any) permission.Action {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewRunBash().Describe(t.Context(), raw, env)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A command in an active sandbox is marked sandboxed; asking to leave it
// is HIGH with its reason and a scope of its own, so no session grant of
// the sandboxed command covers it. Without a sandbox there is nothing to
// leave: sandbox:false changes nothing.
func TestRunBashDescribeSandbox(t *testing.T) {
	env, _ := sandboxedEnv(t, sandbox.Settings{})
	if !env.Runner.Containment().FS {
		t.Fatal("sandbox not active on this machine")
	}
	in := describeBash(t, env, map[string]any{"command": "go test ./..."})
	if !in.Sandboxed || in.Risk >= permission.High {
		t.Errorf("sandboxed command: %+v, want Sandboxed below HIGH", in)
	}
	out := describeBash(t, env, map[string]any{"command": "go test ./...", "sandbox": false})
	if out.Sandboxed || out.Risk != permission.High || out.Scope == in.Scope ||
		len(out.Reasons) == 0 || !strings.Contains(out.Reasons[0], "outside the OS sandbox") {
		t.Errorf("unsandboxed command: %+v, want HIGH, not sandboxed, its own scope and reason", out)
	}

	plain, _ := bashEnv(t)
	a := describeBash(t, plain, map[string]any{"command": "go test ./...", "sandbox": false})
	b := describeBash(t, plain, map[string]any{"command": "go test ./..."})
	if a.Sandboxed || a.Risk != b.Risk || a.Scope != b.Scope {
		t.Errorf("no sandbox: sandbox:false %+v differs from %+v", a, b)
	}
}

// The model reads why a command failed in the sandbox; the same command
// with sandbox:false (approved by the user) runs unconfined.
func TestRunBashSandboxBlockedResult(t *testing.T) {
	env, root := sandboxedEnv(t, sandbox.Settings{})
	outside := t.TempDir()
	target := filepath.Join(outside, "escape")
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "echo x > " + target})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(res.Output, "blocked by the sandbox: write outside the workspace: "+target) {
		t.Fatalf("result %+v: want an error saying the sandbox blocked the write", res)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("%s was written: %v", target, err)
	}
	res, err = runBash(t, context.Background(), env, map[string]any{"command": "echo ok > inside && cat inside"})
	if err != nil || res.IsError || !strings.Contains(res.Output, "ok") || strings.Contains(res.Output, "sandbox") {
		t.Fatalf("inside the workspace: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(root, "inside")); err != nil {
		t.Fatal(err)
	}
	res, err = runBash(t, context.Background(), env, map[string]any{"command": "echo x > " + target, "sandbox": false})
	if err != nil || res.IsError {
		t.Fatalf("unsandboxed: %+v, %v", res, err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("unsandboxed write did not land: %v", err)
	}
}

// A job that left the command's process group (setsid) still dies with
// the command: its PID namespace ends with bash. (Unsandboxed, only the
// group is killed.)
func TestRunBashSandboxKillsEscapedJobs(t *testing.T) {
	env, _ := sandboxedEnv(t, sandbox.Settings{})
	marker := fmt.Sprintf("30.%d%d", os.Getpid(), time.Now().UnixNano()%1000000) // unique: sleep's argument
	res, err := runBash(t, context.Background(), env, map[string]any{"command": "setsid sh -c 'touch ready; exec sleep " + marker + "' & while [ ! -e ready ]; do sleep 0.01; done; echo started"})
	if err != nil || !strings.Contains(res.Output, "started") {
		t.Fatalf("%+v, %v", res, err)
	}
	if pids := processesWithArg(t, marker); len(pids) > 0 {
		t.Fatalf("the escaped job survived its command: pids %v", pids)
	}
}

// processesWithArg lists the host's processes whose command line has arg.
func processesWithArg(t *testing.T, arg string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var pids []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), arg) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}
