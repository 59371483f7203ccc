// Package await owns how tests wait: for an event (a value on a channel, a
// condition rechecked at every change notification), for a process to be
// gone, and for time on a fake clock to pass. Nothing waits by sleeping.
//
// A bounded poll (Poll) exists only for state outside the test's process
// that announces no change — another process's /proc entries, a file a
// child writes — and each call says why there is no event to wait on.
//
// Code that needs no real network or process is better tested in a
// testing/synctest bubble, whose clock moves only when every goroutine
// waits: there these helpers run on the bubble's clock too.
//
// It is a leaf: it imports nothing of ours, so every package's tests may
// use it.
package await

import (
	"testing"
	"time"
)

// Long bounds every wait for an event: the event either comes, and long
// before this, or the test fails. It is not a timing assertion.
const Long = 20 * time.Second

// Event waits for a value on ch (or for ch to close) and returns it,
// failing the test if none comes within Long.
func Event[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	return Within(t, ch, Long, what)
}

// Within is Event with a bound the test states because the bound is part
// of what it checks: the event must come before some timer of the code
// under test could have caused it (the caller names that timer). It is
// not a latency assertion: the bound sits just below that timer, seconds
// away.
func Within[T any](t testing.TB, ch <-chan T, within time.Duration, what string) T {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("timed out after %s waiting for %s", within, what)
		var zero T
		return zero
	}
}

// Until waits until cond holds. It checks cond, and again every time the
// channel changed returned before that check fires (closes or sends), so
// a change between the call and the check is never missed: changed must
// return the channel that the next change will signal. It fails the test
// if cond does not hold within Long.
func Until[T any](t testing.TB, what string, changed func() <-chan T, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(Long)
	defer timer.Stop()
	for {
		ch := changed()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-timer.C:
			t.Fatalf("timed out after %s waiting for %s", Long, what)
			return
		}
	}
}

// Poll checks cond every 10 ms until it holds, failing the test after
// within. It is only for state outside the test's process that announces
// no change; the caller says why there is no event to wait on.
func Poll(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Polled(within, cond) {
		t.Fatalf("timed out after %s waiting for %s", within, what)
	}
}

// Polled is Poll for a caller that reports the failure itself (with what
// it knows of the state): it reports whether cond came to hold within.
func Polled(within time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline.C:
			return cond()
		}
	}
	return true
}
