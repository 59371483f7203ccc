//go:build linux && !amd64

package tools

import "golang.org/x/sys/unix"

// vforkCalls are the system calls a vfork parent waits in (inVfork);
// this architecture has no vfork call of its own.
var vforkCalls = []uintptr{unix.SYS_CLONE, unix.SYS_CLONE3}
