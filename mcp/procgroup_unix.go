//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the server in a process group of its own, so that
// one kill reaches what it started too (npx → node, a shell wrapper's
// children). Setpgid, not Setsid: a server keeps the controlling terminal
// of a chat session, which some use to find their terminal size. Where the
// kernel has one, the server also gets a death signal: it dies with the
// daemon.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
}

// killProcessGroup SIGKILLs every process in the group led by pid. An
// empty group is not an error.
func killProcessGroup(pid int) error {
	if pid <= 0 {
		return nil
	}
	err := syscall.Kill(-pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
