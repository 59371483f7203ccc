package lsp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

func errorCode(t *testing.T, err error) jsonrpc2.Code {
	t.Helper()
	var e *jsonrpc2.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not a JSON-RPC error", err)
	}
	return e.Code
}

func TestRequestBeforeInitialize(t *testing.T) {
	s := start(t, nil, setupOptions{})
	for _, m := range []string{"agent/sessions", "agent/prompt", "shutdown", "textDocument/codeAction"} {
		err := s.ed.Call(ctx(t), m, map[string]any{}, nil)
		if got := errorCode(t, err); got != jsonrpc2.ServerNotInitialized {
			t.Errorf("%s before initialize: code %d, want -32002", m, got)
		}
	}
	s.initialize(nil) // still possible afterwards
}

func TestUnknownMethod(t *testing.T) {
	s := start(t, nil, setupOptions{})
	s.initialize(nil)
	err := s.ed.Call(ctx(t), "agent/doesNotExist", map[string]any{}, nil)
	if got := errorCode(t, err); got != jsonrpc2.MethodNotFound {
		t.Errorf("code %d, want -32601", got)
	}
	// An unknown notification is ignored and the server keeps serving.
	if err := s.ed.Notify(ctx(t), "custom/whatever", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if err := s.ed.Call(ctx(t), "agent/tools", map[string]any{}, nil); err != nil {
		t.Errorf("agent/tools after unknown methods: %v", err)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"shutdown then exit", true, 0}, {"exit alone", false, 1}} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil, setupOptions{})
			s.initialize(nil)
			if tc.shutdown {
				if err := s.ed.Call(ctx(t), "shutdown", nil, nil); err != nil {
					t.Fatal(err)
				}
				err := s.ed.Call(ctx(t), "agent/sessions", map[string]any{}, nil)
				if got := errorCode(t, err); got != jsonrpc2.InvalidRequest {
					t.Errorf("request after shutdown: code %d, want -32600", got)
				}
			}
			if err := s.ed.Notify(ctx(t), "exit", nil); err != nil {
				t.Fatal(err)
			}
			got := await.Event(t, s.served, "Serve to return after exit")
			if got.code != tc.want || got.err != nil {
				t.Errorf("Serve = %d, %v; want %d, nil", got.code, got.err, tc.want)
			}
			s.served <- got // for the cleanup
		})
	}
}

// sleepScript has the model run a command that writes its pid and sleeps,
// then (after the cancellation) answer a follow-up prompt.
func sleepScript() providertest.Script {
	return providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_sleep", Name: "run_bash",
			Arguments: `{"command":"echo $$ > sleep.pid; exec sleep 30"}`}}},
		{Text: "Still here."},
	}
}

// waitPid waits for the sleeping command to run sleep and returns its pid.
// Another process writes the pid file and execs: nothing tells us when,
// so the file and /proc are polled.
func waitPid(t *testing.T, root string) int {
	t.Helper()
	const cmdline = "sleep\x0030\x00"
	pid := 0
	await.Poll(t, 10*time.Second, "the command to start sleeping", func() bool {
		data, err := os.ReadFile(filepath.Join(root, "sleep.pid"))
		if err != nil || !strings.HasSuffix(string(data), "\n") {
			return false
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(string(data))); err != nil {
			t.Fatal(err)
		}
		if pid == 1 {
			// The command runs in the sandbox's own PID namespace, where
			// it is process 1: find it from here by what it runs, where.
			pid = hostPidOf(root, cmdline)
			return pid != 0
		}
		b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		return string(b) == cmdline // bash has exec'd into sleep
	})
	return pid
}

// hostPidOf finds the process running cmdline (NUL-separated) in dir (0:
// none does).
func hostPidOf(dir, cmdline string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cwd, _ := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if string(b) == cmdline && cwd == dir {
			return pid
		}
	}
	return 0
}

func TestCancelPrompt(t *testing.T) {
	for _, how := range []string{"$/cancelRequest", "agent/cancel"} {
		t.Run(how, func(t *testing.T) {
			s := start(t, sleepScript(), setupOptions{caps: fullCaps, autoApprove: true})
			s.initialize(nil)
			var created struct {
				SessionID string `json:"sessionId"`
			}
			if err := s.ed.Call(ctx(t), "agent/newSession", map[string]any{"title": "cancel me"}, &created); err != nil {
				t.Fatal(err)
			}
			id, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": created.SessionID, "prompt": "Sleep."})
			pid := waitPid(t, s.root)
			var err error
			if how == "agent/cancel" {
				err = s.ed.Notify(ctx(t), "agent/cancel", map[string]any{"sessionId": created.SessionID})
			} else {
				err = s.ed.Notify(ctx(t), "$/cancelRequest", map[string]any{"id": id})
			}
			if err != nil {
				t.Fatal(err)
			}
			// The command sleeps 30 s, longer than await's wait: only the
			// cancellation can end the prompt in time.
			res := await.Event(t, done, "the prompt to end on the cancellation")
			if res.Err != nil {
				t.Fatalf("prompt: %v", res.Err)
			}
			if !strings.Contains(string(res.Result), `"stopReason":"cancelled"`) {
				t.Errorf("result = %s", res.Result)
			}
			if !await.Gone(pid) {
				t.Errorf("the command (pid %d) is still running", pid)
			}
			// The history stays valid: the strict fake accepts the next prompt.
			r := s.prompt(map[string]any{"sessionId": created.SessionID, "prompt": "Are you there?"})
			if r.StopReason != "end_turn" || r.Text != "Still here." {
				t.Errorf("follow-up = %+v", r)
			}
		})
	}
}

// A client that vanishes mid-prompt (stdin EOF) ends the daemon and
// leaves no child behind.
func TestEOFMidPromptKillsChildren(t *testing.T) {
	s := start(t, sleepScript(), setupOptions{caps: fullCaps, autoApprove: true})
	s.initialize(nil)
	_, _ = s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"prompt": "Sleep."})
	pid := waitPid(t, s.root)
	s.toSrv.Close()
	got := await.Event(t, s.served, "Serve to return at end of input")
	if got.code != 1 || got.err != nil {
		t.Errorf("Serve = %d, %v; want 1, nil", got.code, got.err)
	}
	s.served <- got
	if !await.Gone(pid) {
		t.Errorf("the command (pid %d) outlived the daemon", pid)
	}
}
