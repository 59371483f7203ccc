//go:build unix && !linux

package await

import (
	"errors"
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// lookEvery is how often exited looks again: these kernels offer no
// descriptor that becomes readable when another process exits (kqueue's
// EVFILT_PROC would, but only for a process that has not exited yet, so a
// look is needed anyway), and the process is outside ours.
const lookEvery = 5 * time.Millisecond

// exited waits up to ms milliseconds (0: not at all) for pid to exit and
// reports whether it has.
func exited(pid, ms int) (bool, error) {
	deadline := time.Now().Add(time.Duration(ms) * time.Millisecond)
	for {
		gone, err := goneNow(pid)
		if err != nil || gone || !time.Now().Before(deadline) {
			return gone, err
		}
		time.Sleep(lookEvery) // a bounded poll of state outside the process
	}
}

// goneNow reports whether pid has exited: no such process, or a zombie.
func goneNow(pid int) (bool, error) {
	err := unix.Kill(pid, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return true, nil
	case err != nil && !errors.Is(err, unix.EPERM): // EPERM: it exists, another user's
		return false, fmt.Errorf("kill -0 %d: %w", pid, err)
	}
	return zombie(pid), nil
}
