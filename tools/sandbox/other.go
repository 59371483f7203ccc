//go:build !linux

package sandbox

import (
	"context"
	"os/exec"
)

// Main returns at once: there is no launcher on this platform.
func Main() {}

// checkKernel: this platform has no sandbox yet (macOS Seatbelt would
// sit behind the same Sandbox type: a profile string built from the same
// policy, passed to sandbox-exec).
func (s *Sandbox) checkKernel() (needsLaunch bool) {
	s.status.Unavailable = "no OS sandbox on this platform"
	return false
}

// launchProbe is never called here (checkKernel needs no launch).
func (s *Sandbox) launchProbe(context.Context) {}

// Command returns plain `bash -c command`; release does nothing.
func (s *Sandbox) Command(command, dir string, env []string) (*exec.Cmd, func(), error) {
	cmd := exec.Command("bash", "-c", command)
	cmd.Dir, cmd.Env = dir, env
	return cmd, func() {}, nil
}

// filterArch: no seccomp filter on this platform (nor any sandbox).
func filterArch() uint32 { return 0 }

// readRules: no Landlock here, nothing kept.
type readRules struct{ hidden []string }

func (r *readRules) close() {}
