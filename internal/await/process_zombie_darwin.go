package await

import "golang.org/x/sys/unix"

// szomb is the kernel's state of a process that exited and waits for its
// parent's wait(2) (SZOMB in <sys/proc.h>).
const szomb = 5

// zombie reports whether pid has exited but is not reaped yet.
func zombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err == nil && kp.Proc.P_stat == szomb
}
