package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// forwardedSignals are passed on to the program: what asks a process to
// end. (PID 1 of a namespace gets only the signals it handles, and SIGKILL
// from outside, which ends the whole tree.)
var forwardedSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT}

// treeInit is the init of a contained tree (ContainTree): it waits for
// an ordinary user's id maps, starts the program on its own stdio, reaps
// every orphan of the tree (a PID namespace's init inherits them) and
// exits with the program's status once the program has exited, which
// ends what the program left behind.
func treeInit(args []string) int {
	if len(args) == 1 && args[0] == treeProbeArg {
		return 0
	}
	if len(args) < 3 {
		fmt.Fprintf(os.Stderr, "agent-lsp tree init: %v\n", errNoTreeProgram)
		return launcherFailed
	}
	gateArg, path, argv := args[0], args[1], args[2:]
	if gateArg != "-" {
		fd, err := strconv.Atoi(gateArg)
		if err == nil {
			err = waitForGate(fd)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "agent-lsp tree init: %v\n", err)
			return launcherFailed
		}
	}
	// Handled before the start, so that no signal in between is lost.
	signals := make(chan os.Signal, len(forwardedSignals))
	signal.Notify(signals, forwardedSignals...)
	proc, err := os.StartProcess(path, argv, &os.ProcAttr{Env: os.Environ(), Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}})
	if err != nil {
		fmt.Fprintf(os.Stderr, "agent-lsp tree init: %v\n", err)
		if errors.Is(err, fs.ErrNotExist) {
			return 127
		}
		return 126
	}
	// Ends with this process, which exits once the program has.
	go func() {
		for sig := range signals {
			_ = proc.Signal(sig)
		}
	}()
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "agent-lsp tree init: waiting: %v\n", err)
			return launcherFailed
		}
		if pid != proc.Pid {
			continue // an orphan of the tree, reaped
		}
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}
