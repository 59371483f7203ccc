package sandbox

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// stubCanary is in the environment the "client" starts the stub with:
// the command must never see it.
const stubCanary = "STUB_CLIENT_CANARY=canary-client-env-81c2"

// startStub starts the test binary as the stub a client's terminal runs
// (TestMain dispatches AttachArg), with args, the client's environment and
// descriptors the client leaked to it (fd 3 on).
func startStub(t *testing.T, args []string, token string, leaked ...*os.File) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(testBinary(), args...)
	cmd.Env = append(os.Environ(), stubCanary, AttachTokenEnv+"="+token)
	cmd.ExtraFiles = leaked
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return cmd, &out
}

func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // owner: this call; ends with the stub
	err := await.Within(t, done, 30*time.Second, "the stub's exit")
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode()
}

// A sandboxed command handed to a stub runs under the daemon's policy
// with the daemon's environment, not the client's: the stub's canary is
// not in it, writes outside the workspace and ~/.ssh are refused, and the
// exit code comes back both as the stub's exit and in its report. A file
// outside the workspace that the client left open in the stub (fd 4) is
// not the command's to write through.
func TestHandoffRunsContained(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	leakedPath := filepath.Join(f.outside, "leaked")
	leaked, err := os.Create(leakedPath)
	if err != nil {
		t.Fatal(err)
	}
	defer leaked.Close()
	command := "env; cat " + filepath.Join(f.home, ".ssh", "id_ed25519") + "; echo x > " + filepath.Join(f.outside, "x") +
		"; echo through-the-leak >&4; echo done; exit 3"
	h, err := s.Handoff(command, f.ws, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + f.home, "DAEMON_VAR=from-the-daemon"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Attach(h)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.Program() != testBinary() {
		t.Errorf("the stub is %q, want this binary %q", a.Program(), testBinary())
	}
	_, token := a.Env()
	stub, out := startStub(t, a.Args(), token, os.Stdin, leaked)
	await.Within(t, a.Started(), 20*time.Second, "the stub starting the command")
	if code := exitCode(t, stub); code != 3 {
		t.Errorf("stub exit %d, want 3; output %q", code, out)
	}
	await.Within(t, a.Done(), 10*time.Second, "the stub's hang-up")
	if ex := a.Exit(); !ex.Reported || ex.Code != 3 {
		t.Errorf("reported exit %+v, want code 3", ex)
	}
	got := out.String()
	if !strings.Contains(got, "DAEMON_VAR=from-the-daemon") || !strings.Contains(got, "done") {
		t.Fatalf("the command did not run with the daemon's environment: %q", got)
	}
	if strings.Contains(got, "canary-client-env") || strings.Contains(got, f.secret) {
		t.Errorf("the client's environment or the secret reached the command: %q", got)
	}
	if _, err := os.Stat(filepath.Join(f.outside, "x")); err == nil {
		t.Error("the handed-off command wrote outside the workspace")
	}
	if b, _ := os.ReadFile(leakedPath); len(b) > 0 {
		t.Errorf("the command wrote %q through a descriptor the client leaked to the stub", b)
	}
}

// Only the token opens the handoff, once: a connection with a wrong one
// gets nothing, and the real stub still gets the command after it.
func TestAttachRefusesAWrongToken(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	h, err := s.Handoff("echo handed", f.ws, []string{"PATH=" + os.Getenv("PATH")})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Attach(h)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	args := a.Args()
	_, token := a.Env()
	c, err := net.Dial("unix", args[1])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte(strings.Repeat("0", len(token)) + "\n")); err != nil {
		t.Fatal(err)
	}
	var buf [64]byte
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(buf[:]); err == nil || n > 0 {
		t.Fatalf("a wrong token got %d bytes (%v)", n, err)
	}
	c.Close()
	stub, out := startStub(t, args, token)
	if code := exitCode(t, stub); code != 0 || !strings.Contains(out.String(), "handed") {
		t.Fatalf("the stub after a wrong token: exit %d, output %q", code, out)
	}
}

// A stub gives nothing to a socket that is not the daemon's: a process
// that took the socket's place (the token's holder, even) learns nothing
// and hands nothing to run.
func TestStubRefusesAListenerThatIsNotTheAgent(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() { // owner: this test; ends with the first connection
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		var buf bytes.Buffer
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, _ = buf.ReadFrom(c)
		got <- buf.Bytes()
	}()
	// The stub is told the agent is another process (pid 1): this test
	// holding the socket is an impostor.
	stub, out := startStub(t, []string{AttachArg, sock, "1"}, "secret-token")
	if code := exitCode(t, stub); code != attachFailed || !strings.Contains(out.String(), "not the agent") {
		t.Errorf("stub exit %d, output %q; want %d and the refusal", code, out, attachFailed)
	}
	if b := await.Within(t, got, 10*time.Second, "the impostor's read"); len(b) > 0 {
		t.Errorf("the impostor received %q", b)
	}
}

// When the daemon hangs up (the prompt was cancelled), the stub kills the
// command's whole process group, a background job included.
func TestStubKillsTheCommandWhenTheAgentHangsUp(t *testing.T) {
	f := newFixture(t)
	for _, st := range []Settings{{}, {NoNamespaces: true}} {
		s := newSandbox(t, f, st)
		h, err := s.Handoff("sleep 301 & sleep 302", f.ws, []string{"PATH=" + os.Getenv("PATH")})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Attach(h)
		if err != nil {
			t.Fatal(err)
		}
		_, token := a.Env()
		stub, out := startStub(t, a.Args(), token)
		await.Within(t, a.Started(), 20*time.Second, "the stub starting the command")
		a.mu.Lock()
		pgid := a.pgid
		a.mu.Unlock()
		await.Poll(t, 10*time.Second, "the background job to start (a process outside this one)", func() bool {
			return groupSize(pgid) >= 2
		})
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		if code := exitCode(t, stub); code != 128+int(syscall.SIGKILL) {
			t.Errorf("stub exit %d, want %d (killed); output %q", code, 128+int(syscall.SIGKILL), out)
		}
		await.Poll(t, 10*time.Second, "the command's process group to be gone (processes outside this one)", func() bool {
			return groupSize(pgid) == 0
		})
	}
}

// groupSize counts the live (not zombie) processes of a process group.
func groupSize(pgid int) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so split after ')'.
		i := bytes.LastIndexByte(stat, ')')
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) > 2 && fields[0] != "Z" && fields[2] == strconv.Itoa(pgid) && pid > 0 {
			n++
		}
	}
	return n
}

// TestHandoffAsNobody runs the handoff tests above as an unprivileged
// user (see runAsNobody), the stub included.
func TestHandoffAsNobody(t *testing.T) {
	out := runAsNobody(t, "^(TestHandoffRunsContained|TestAttachRefusesAWrongToken|TestStubRefusesAListenerThatIsNotTheAgent|TestStubKillsTheCommandWhenTheAgentHangsUp)$")
	if bytes.Count(out, []byte("--- PASS")) != 4 {
		t.Fatalf("as an ordinary user:\n%s", out)
	}
	t.Logf("as an ordinary user:\n%s", lastLines(string(out), 6))
}
