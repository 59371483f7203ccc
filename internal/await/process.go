package await

import (
	"context"
	"fmt"
	"testing"
	"time"
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
// child. It waits on the kernel where it can (Linux: the pidfd becomes
// readable when the process exits; Windows: the process handle is
// signalled) and elsewhere looks every few milliseconds. It returns
// ctx's error if ctx ends first.
func Exit(ctx context.Context, pid int) error {
	for {
		// Wake every 100 ms to notice ctx: the kernel's wait takes no context.
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
