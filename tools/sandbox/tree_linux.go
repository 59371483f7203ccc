package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// treeInitArg is the hidden first argument that makes the binary the init
// of a contained process tree (treeInit) instead of itself.
const treeInitArg = "__tree-init"

// treeProbeArg makes the init exit at once: the start-up check.
const treeProbeArg = "-probe"

// ContainTree makes cmd, not yet started, run as the only child of an
// init (this binary again, see Main) in a PID namespace of its own, so
// that its whole process tree, daemons started with setsid included,
// dies when the init does: the kernel kills everything left in a PID
// namespace whose first process exits. The init exits when cmd's program
// does (with its status), or when the daemon dies if the caller set a
// death signal on cmd (the SIGKILL the kernel sends on the daemon's
// kill -9 too).
//
// Nothing else is confined: the program sees the real file system,
// network and user ids and its own environment. root needs no user
// namespace for this; an ordinary user gets one that maps only their own
// ids (written after the init's exec, see usernsGate, which the init
// waits for).
//
// Call started once cmd.Start has returned, whether it failed or not. An
// error means this machine cannot make the namespace (and says why): cmd
// is left as it was.
func ContainTree(ctx context.Context, cmd *exec.Cmd) (started func(), err error) {
	if err := treeNamespacesWork(ctx); err != nil {
		return nil, err
	}
	gateArg := "-"
	var gate *usernsGate
	if os.Geteuid() != 0 {
		if gate, err = newUsernsGate(); err != nil {
			return nil, err
		}
		// fd 3 + the caller's extra files before it.
		gateArg = strconv.Itoa(3 + len(cmd.ExtraFiles))
		cmd.ExtraFiles = append(cmd.ExtraFiles, gate.launcherEnd)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Cloneflags |= treeCloneFlags()
	args := append([]string{"agent-lsp-tree-init", treeInitArg, gateArg, cmd.Path}, cmd.Args...)
	cmd.Path, cmd.Args = launcherPath, args
	return func() {
		if gate != nil {
			gate.open(cmd.Process)
		}
	}, nil
}

// treeCloneFlags: root may make a PID namespace outright; an ordinary
// user needs a user namespace to own it.
func treeCloneFlags() uintptr {
	if os.Geteuid() == 0 {
		return syscall.CLONE_NEWPID
	}
	return syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
}

var treeProbe struct {
	mu   sync.Mutex
	done bool
	err  error
}

// treeNamespacesWork starts the init once with the namespaces it would
// get (user namespaces may be disabled, or denied by a container's
// seccomp profile) and remembers the answer; an attempt cut short by ctx
// is not remembered.
func treeNamespacesWork(ctx context.Context) error {
	treeProbe.mu.Lock()
	defer treeProbe.mu.Unlock()
	if treeProbe.done {
		return treeProbe.err
	}
	cmd := exec.CommandContext(ctx, launcherPath, treeInitArg, treeProbeArg)
	cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: treeCloneFlags()}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		err = fmt.Errorf("no PID namespace for the process tree: %w %s", err, out)
	}
	treeProbe.done, treeProbe.err = true, err
	return err
}

// errNoTreeProgram is the init's answer to arguments it does not know.
var errNoTreeProgram = errors.New("usage: " + treeInitArg + " GATE-FD|- PATH ARGV0 [ARG...]")
