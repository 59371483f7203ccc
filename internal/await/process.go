package await

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The one rule for "a process is gone": it has exited, whether or not its
// parent has reaped it yet. A zombie counts as gone: it runs no code,
// holds no file, no lock and no memory of its own, and only waits for its
// parent's wait(2) — which, for a process we did not start (a server's
// grandchild, a daemon's child), is not ours to call. The kernel applies
// the same rule: a pidfd becomes readable when its process exits, before
// it is reaped. An unknown pid is gone.

// Gone reports whether process pid is gone (exited, zombie or reaped).
func Gone(pid int) bool {
	gone, err := exited(pid, 0)
	return err == nil && gone
}

// Exit waits until process pid is gone, whether or not it is the caller's
// child. It waits on the kernel, not a clock: the pidfd becomes readable
// when the process exits. It returns ctx's error if ctx ends first.
func Exit(ctx context.Context, pid int) error {
	for {
		// Wake every 100 ms to notice ctx: poll(2) takes no context.
		gone, err := exited(pid, 100)
		if err != nil || gone {
			return err
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("process %d still running: %w", pid, err)
		}
	}
}

// Exited fails the test (without stopping it) unless process pid is gone
// within the given time.
func Exited(t testing.TB, within time.Duration, pid int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := Exit(ctx, pid); err != nil {
		t.Errorf("after %s: %v", within, err)
	}
}

// exited waits up to ms milliseconds (0: not at all) for pid to exit and
// reports whether it has.
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
