package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The stub's side of a handoff (see handoff_linux.go).

// attachDialWait bounds the stub's connection to the daemon.
const attachDialWait = 10 * time.Second

// relayDrainGrace bounds the wait for output after the command's process
// group is gone (a descendant that left the group may hold a pipe open).
const relayDrainGrace = 2 * time.Second

// attachFailed is the stub's exit code when it could not get or start the
// command (the daemon then runs it itself).
const attachFailed = 125

// RunAttached is the stub a client's terminal runs: args are what
// Attachment.Args gave after AttachArg (the socket, the daemon's pid),
// token what Attachment.Env gave (the caller reads it from AttachTokenEnv
// before it drops its environment). It connects to the daemon, checks that the socket's
// other end is that process, proves itself with the token, receives the
// command and starts it exactly as the daemon would (the environment the
// client gave this process is not passed on), relays the command's
// output to stdout and stderr, and returns the command's exit code (128+n
// for signal n). The command is killed, its whole process group, when ctx
// ends (the terminal was killed) or the daemon hangs up.
func RunAttached(ctx context.Context, args []string, token string, stdout, stderr io.Writer) int {
	if err := closeOnExecAbove2(); err != nil {
		fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", err)
		return attachFailed
	}
	c, err := dialDaemon(args, token)
	if err != nil {
		fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", err)
		return attachFailed
	}
	defer c.Close()
	h, err := receiveHandoff(c)
	if err != nil {
		report(c, stubReport{Error: err.Error()})
		fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", err)
		return attachFailed
	}
	defer h.Close()
	code, err := runHandoff(ctx, c, h, stdout, stderr)
	if err != nil {
		report(c, stubReport{Error: err.Error()})
		fmt.Fprintf(stderr, "agent-lsp sandbox stub: %v\n", err)
		return attachFailed
	}
	return code
}

// closeOnExecAbove2 keeps every descriptor the client left open in this
// process (an editor's socket, a file outside the workspace) from reaching
// the command: a descriptor open before the sandbox is not the sandbox's
// to refuse.
func closeOnExecAbove2() error {
	if err := unix.CloseRange(3, math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC); err == nil {
		return nil
	}
	// Kernels before 5.11: one by one.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("listing inherited descriptors: %w", err)
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC)
		}
	}
	return nil
}

// dialDaemon connects to the socket in args and authenticates both ends.
func dialDaemon(args []string, token string) (*net.UnixConn, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("want <socket> <pid>, got %d arguments", len(args))
	}
	if token == "" {
		return nil, fmt.Errorf("no token in %s (the terminal did not pass the environment it was given)", AttachTokenEnv)
	}
	sock := args[0]
	pid, err := strconv.Atoi(args[1])
	if err != nil {
		return nil, fmt.Errorf("daemon pid %q: %w", args[1], err)
	}
	d := net.Dialer{Timeout: attachDialWait}
	conn, err := d.Dial("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("connecting to the agent: %w", err)
	}
	c := conn.(*net.UnixConn)
	// Whoever could replace the socket must not be able to hand us a
	// command: the listener must be the daemon that named itself.
	cred, err := peerCred(c)
	if err == nil && (int(cred.Pid) != pid || int(cred.Uid) != os.Getuid()) {
		err = fmt.Errorf("the socket is held by pid %d uid %d, not the agent (pid %d)", cred.Pid, cred.Uid, pid)
	}
	if err == nil {
		_, err = c.Write([]byte(token + "\n"))
	}
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return c, nil
}

// report sends one line to the daemon; a daemon that is gone cannot be
// told, and the command is then killed anyway.
func report(c *net.UnixConn, r stubReport) {
	b, _ := json.Marshal(r)
	_, _ = c.Write(append(b, '\n'))
}

// runHandoff starts h's command with its output relayed, tells the daemon,
// and waits for its end, for ctx or for the daemon's hang-up.
func runHandoff(ctx context.Context, c *net.UnixConn, h *Handoff, stdout, stderr io.Writer) (int, error) {
	cmd := h.cmd()
	cmd.Stdin = nil // /dev/null, as for the daemon's own runner
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return 0, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW

	// Start and Wait on one locked thread: Pdeathsig fires when the
	// forking thread exits.
	startErr, exited := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(exited)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		err := cmd.Start()
		_ = h.Close()
		startErr <- err
		if err == nil {
			_ = cmd.Wait() // the outcome is read from cmd.ProcessState
		}
	}()
	err = <-startErr
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return 0, fmt.Errorf("starting the command: %w", err)
	}
	pgid := cmd.Process.Pid
	report(c, stubReport{Started: true, PGID: pgid})

	drained := make(chan struct{}, 2)
	relay := func(w io.Writer, r *os.File) {
		_, _ = io.Copy(w, r) // ends at EOF or at the read deadline set below
		drained <- struct{}{}
	}
	go relay(stdout, outR)
	go relay(stderr, errR)
	hangup := make(chan struct{})
	go func() {
		defer close(hangup)
		_, _ = io.Copy(io.Discard, c) // the daemon sends nothing more: EOF is its hang-up
	}()

	select {
	case <-exited:
	case <-hangup:
	case <-ctx.Done():
	}
	// Background jobs left behind die with the command, as in the
	// daemon's own runner.
	_ = killGroup(pgid)
	<-exited
	_ = killGroup(pgid)
	deadline := time.Now().Add(relayDrainGrace)
	_ = outR.SetReadDeadline(deadline)
	_ = errR.SetReadDeadline(deadline)
	<-drained
	<-drained
	outR.Close()
	errR.Close()

	exit := exitOf(cmd.ProcessState)
	report(c, stubReport{Exit: &exit})
	_ = c.Close() // what was written is still the daemon's to read
	<-hangup
	if exit.Signal != "" {
		if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
			return 128 + int(st.Signal()), nil
		}
	}
	return exit.Code, nil
}

// exitOf is how the process ended.
func exitOf(ps *os.ProcessState) Exit {
	if st, ok := ps.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		return Exit{Code: -1, Signal: signalName(st.Signal())}
	}
	return Exit{Code: ps.ExitCode()}
}

// signalName is the signal's conventional name (SIGKILL), as ACP's
// terminal exit status carries it.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return n
	}
	return "signal " + strconv.Itoa(int(s))
}

// killGroup sends SIGKILL to the process group; an empty one is fine.
func killGroup(pgid int) error {
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
