package tools

import "golang.org/x/sys/unix"

// vforkCalls are the system calls a vfork parent waits in (inVfork).
var vforkCalls = []uintptr{unix.SYS_CLONE, unix.SYS_CLONE3, unix.SYS_VFORK}
