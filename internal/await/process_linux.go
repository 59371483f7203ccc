package await

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// exited waits up to ms milliseconds (0: not at all) for pid to exit and
// reports whether it has. A pidfd is readable once its process has
// exited, reaped or not.
func exited(pid, ms int) (bool, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("pidfd_open %d: %w", pid, err)
	}
	defer unix.Close(fd)
	n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, ms)
	if err != nil && !errors.Is(err, unix.EINTR) {
		return false, fmt.Errorf("poll pidfd %d: %w", pid, err)
	}
	return n > 0, nil
}
