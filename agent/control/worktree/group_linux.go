package worktree

import "syscall"

// parentDeath makes the kernel kill git when the daemon dies.
func parentDeath(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
