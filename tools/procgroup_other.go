//go:build !unix

package tools

import (
	"errors"
	"os"
	"os/exec"
)

// startsOwnGroup: without process groups only the shell itself can be
// killed; its children may survive it.
func startsOwnGroup(cmd *exec.Cmd) {}

// killGroup kills the process (this platform has no process groups).
func killGroup(p *os.Process) error {
	err := p.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		return nil
	}
	return err
}
