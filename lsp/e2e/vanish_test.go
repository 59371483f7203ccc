package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// clientPipes is the editor's side of the daemon's stdio. Closing it
// closes only the read end (the daemon's stdout): the cases close the
// daemon's stdin themselves, when they mean to.
type clientPipes struct {
	io.Reader // the daemon's stdout
	stdin     io.WriteCloser
	stdout    io.Closer
}

func (p clientPipes) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p clientPipes) Close() error { return p.stdout.Close() }

// An editor that goes away while a command runs (auto-approved run_bash,
// two sleeps in one shell) leaves no process behind, and the daemon ends.
func TestVanishingClientLeavesNoProcess(t *testing.T) {
	tests := []struct {
		name string
		// streaming starts a second session whose answer is still
		// streaming when the editor goes away.
		streaming bool
		vanish    func(p clientPipes, ed *lsptest.Editor, logFile string)
		wantCode  int
	}{
		// The editor closes the daemon's input and keeps reading.
		{"stdin closed", false, func(p clientPipes, _ *lsptest.Editor, _ string) { _ = p.stdin.Close() }, 1},
		// The editor crashed: both pipes are gone at once.
		{"both pipes closed", false, func(p clientPipes, ed *lsptest.Editor, _ string) {
			_ = ed.Close()
			_ = p.stdin.Close()
		}, 1},
		// The editor crashed and the kernel closed its read end first,
		// while the daemon still had updates to write: a write to a
		// broken stdout must not kill the daemon (Go's default for EPIPE
		// on fd 1 is death by SIGPIPE) before it kills its children.
		{"stdout closed first while streaming", true, func(p clientPipes, _ *lsptest.Editor, logFile string) {
			_ = p.stdout.Close()
			// The stalled stream resumes after 300 ms and its next update
			// hits the closed pipe, which the daemon (another process)
			// logs: polled. Not seeing it is reported below.
			await.Polled(10*time.Second, func() bool {
				log, _ := os.ReadFile(logFile)
				return bytes.Contains(log, []byte("broken pipe"))
			})
			_ = p.stdin.Close()
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The sleeps' duration is the marker that finds them in /proc.
			marker := fmt.Sprintf("300.%09d", rand.IntN(1_000_000_000))
			args, err := json.Marshal(map[string]string{"command": "sleep " + marker + " & sleep " + marker + "; wait"})
			if err != nil {
				t.Fatal(err)
			}
			script := providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_sleep", Name: "run_bash", Arguments: string(args)}}},
			}
			if tt.streaming {
				script = append(script, providertest.Turn{Text: strings.Repeat("streaming on; ", 200),
					Fault: &providertest.Fault{Stall: 300 * time.Millisecond, StallAfterFrames: 3}})
			}
			model := providertest.NewServer(t, script)
			d := newDaemon(t, model, "--yes")
			root := workspace(t, nil)

			cmd := exec.Command(d.args[0], d.args[1:]...)
			cmd.Dir = root
			cmd.Env = isolatedEnv(t)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waited := make(chan error, 1)
			go func() { waited <- cmd.Wait() }()
			t.Cleanup(func() {
				_ = stdin.Close()
				_ = cmd.Process.Kill()
				<-waited
				for _, pid := range processesWith(marker) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			})

			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			pipes := clientPipes{Reader: stdout, stdin: stdin, stdout: stdout}
			ed := lsptest.Connect(ctx, pipes, lsptest.Handlers{})
			if _, err := ed.Initialize(ctx, root, lsptest.Capabilities{ApplyEdit: true, DocumentChanges: true}, nil); err != nil {
				t.Fatalf("initialize: %v", err)
			}
			ed.CallAsync(ctx, "agent/prompt", map[string]any{"prompt": "Wait a while."})

			// The daemon's grandchildren tell no one they started: /proc is polled.
			var running []int
			if !await.Polled(10*time.Second, func() bool { running = processesWith(marker); return len(running) >= 3 }) {
				t.Fatalf("the shell and its two sleeps did not start; found %v", running)
			}

			if tt.streaming {
				ed.CallAsync(ctx, "agent/prompt", map[string]any{"prompt": "Talk meanwhile."})
				if err := model.WaitRequests(ctx, 2); err != nil {
					t.Fatalf("the second session's model request did not arrive: %v", err)
				}
			}
			tt.vanish(pipes, ed, d.logFile)
			waited <- await.Within(t, waited, 5*time.Second, "the daemon's exit within 5 s of losing its client") // back, for the cleanup
			code := cmd.ProcessState.ExitCode()
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				t.Errorf("the daemon died of %v; stderr:\n%s", ws.Signal(), stderr.Bytes())
			} else if code != tt.wantCode {
				t.Errorf("the daemon exited %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.Bytes())
			}
			// Killed processes leave /proc on their own time: polled.
			var left []int
			if !await.Polled(3*time.Second, func() bool { left = processesWith(marker); return len(left) == 0 }) {
				t.Fatalf("processes left behind: %v (of %v)", left, running)
			}
			if tt.streaming {
				// The case is only worth its name if a write hit the closed pipe.
				if log, _ := os.ReadFile(d.logFile); !bytes.Contains(log, []byte("broken pipe")) {
					t.Errorf("no write failed with EPIPE; the daemon log:\n%s", tail(log, 20))
				}
			}
			// The daemon's output ended too. (The pending agent/prompt call
			// itself is not failed by go.lsp.dev/jsonrpc2 when its connection
			// ends: it waits for ctx, so it is not checked.)
			await.Event(t, ed.Done(), "the daemon's stdout to end")
			ed.Close()
		})
	}
}

// processesWith returns the processes not gone (await's rule: a zombie is
// gone, and has an empty command line besides) whose command line contains
// marker.
func processesWith(marker string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(cmdline, []byte(marker)) && !await.Gone(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}
