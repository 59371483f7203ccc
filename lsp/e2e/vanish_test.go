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
		vanish    func(p clientPipes, ed *lsptest.Editor)
		wantCode  int
	}{
		// The editor closes the daemon's input and keeps reading.
		{"stdin closed", false, func(p clientPipes, _ *lsptest.Editor) { _ = p.stdin.Close() }, 1},
		// The editor crashed: both pipes are gone at once.
		{"both pipes closed", false, func(p clientPipes, ed *lsptest.Editor) {
			_ = ed.Close()
			_ = p.stdin.Close()
		}, 1},
		// The editor crashed and the kernel closed its read end first,
		// while the daemon still had updates to write: a write to a
		// broken stdout must not kill the daemon (Go's default for EPIPE
		// on fd 1 is death by SIGPIPE) before it kills its children.
		{"stdout closed first while streaming", true, func(p clientPipes, _ *lsptest.Editor) {
			_ = p.stdout.Close()
			time.Sleep(time.Second) // the stalled stream resumes after 300 ms
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

			var running []int
			for deadline := time.Now().Add(10 * time.Second); len(running) < 3; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the shell and its two sleeps did not start; found %v", running)
				}
				running = processesWith(marker)
			}

			if tt.streaming {
				ed.CallAsync(ctx, "agent/prompt", map[string]any{"prompt": "Talk meanwhile."})
				for deadline := time.Now().Add(10 * time.Second); model.Consumed() < 2; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("the second session's model request did not arrive")
					}
				}
			}
			tt.vanish(pipes, ed)
			select {
			case err := <-waited:
				waited <- err // for the cleanup
				code := cmd.ProcessState.ExitCode()
				if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					t.Errorf("the daemon died of %v; stderr:\n%s", ws.Signal(), stderr.Bytes())
				} else if code != tt.wantCode {
					t.Errorf("the daemon exited %d, want %d; stderr:\n%s", code, tt.wantCode, stderr.Bytes())
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("the daemon did not exit within 5 s of losing its client")
			}
			for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				left := processesWith(marker)
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("processes left behind: %v (of %v)", left, running)
				}
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
			select {
			case <-ed.Done():
			case <-time.After(5 * time.Second):
				t.Errorf("the daemon's stdout did not end")
			}
			ed.Close()
		})
	}
}

// processesWith returns the live processes whose command line contains
// marker (zombies have an empty command line and are not counted).
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
		if err == nil && bytes.Contains(cmdline, []byte(marker)) {
			pids = append(pids, pid)
		}
	}
	return pids
}
