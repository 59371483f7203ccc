//go:build unix && !linux

package mcp

import "syscall"

// setDeathSignal does nothing where the kernel has no parent-death signal;
// Close still kills the server's process group.
func setDeathSignal(*syscall.SysProcAttr) {}
