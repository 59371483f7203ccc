//go:build unix

package tools

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// startsOwnGroup makes cmd the leader of a new session, and so of a new
// process group whose id is its pid: everything it starts (pipelines,
// subshells, `cmd &`) stays in that group unless it calls setsid itself,
// so one kill reaches them all. A new session also has no controlling
// terminal: a command that wants to prompt on /dev/tty fails at once
// instead of stopping the whole group until the timeout.
//
// Where the platform has it, the child also gets SIGKILL when the daemon
// dies (diesWithParent).
func startsOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	diesWithParent(cmd.SysProcAttr)
}

// killGroup sends SIGKILL to every process in p's group. A group that is
// already empty is not an error.
func killGroup(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
