//go:build unix && !linux

package tools

import "syscall"

// diesWithParent: no parent-death signal on this platform; a command the
// daemon started may outlive a daemon that was killed.
func diesWithParent(*syscall.SysProcAttr) {}
