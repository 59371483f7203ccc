package lsptest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExit waits until process pid has exited (a zombie counts: it runs no
// more), whether or not it is the caller's child. It asks the kernel, not a
// clock: a pidfd becomes readable when its process exits. An unknown pid
// has exited already.
func WaitExit(ctx context.Context, pid int) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("pidfd_open %d: %w", pid, err)
	}
	defer unix.Close(fd)
	for {
		// Wake at least every 100 ms to notice ctx: poll takes no context.
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 100)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("poll pidfd %d: %w", pid, err)
		}
		if n > 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("process %d still running: %w", pid, err)
		}
	}
}

// Eventually checks cond until it holds, failing the test after within.
// It is for state that lives outside the test's process and announces no
// change (another process's /proc entries, files a killed process left, a
// server's status that has no notification); whatever has an event (a
// notification, a pidfd, a channel) is waited on instead.
func Eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		<-tick.C
	}
}

// Output collects what a child process writes (its stderr, say) while the
// test reads it: exec's copying goroutine writes, the test calls String.
type Output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

// String is everything written so far.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
