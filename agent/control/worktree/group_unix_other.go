//go:build unix && !linux

package worktree

import "syscall"

// parentDeath: no parent-death signal on this platform.
func parentDeath(*syscall.SysProcAttr) {}
