//go:build unix

package worktree

import (
	"os/exec"
	"runtime"
	"syscall"
)

// ownGroup puts git in its own process group and makes a cancelled
// context kill the whole group: git starts other gits (worktree add runs
// a checkout), which must not outlive the call.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeath(cmd.SysProcAttr)
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// runOwned runs cmd on a locked thread: the parent-death signal is tied
// to the thread that started the child, which must live until it ended.
func runOwned(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Run()
}
