package await

import (
	"sync"
	"testing"
	"time"
)

// Clock is a fake clock: time moves only when the test calls Advance, and
// every wait asked of it (After) is reported, in order, by NextWait. Code
// under test takes it through its own clock seam (Now, After), so a
// one-minute backoff costs no time and a test knows when the code waits.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
	waits  chan time.Duration // every After's duration, in order
}

type fakeTimer struct {
	at time.Time
	ch chan time.Time
}

// NewClock starts a fake clock at a fixed instant.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), waits: make(chan time.Duration, 1000)}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives the clock's time once it has been
// advanced by d, and reports d to NextWait.
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), ch: ch})
	c.fireLocked()
	c.waits <- d
	return ch
}

// Advance moves the clock on by d and fires the timers that are due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.fireLocked()
}

func (c *Clock) fireLocked() {
	kept := c.timers[:0]
	for _, tm := range c.timers {
		if tm.at.After(c.now) {
			kept = append(kept, tm)
			continue
		}
		tm.ch <- c.now
	}
	c.timers = kept
}

// NextWait waits for the code under test to call After and returns the
// duration it asked for, failing the test if it does not within Long.
func (c *Clock) NextWait(t testing.TB) time.Duration {
	t.Helper()
	return Event(t, c.waits, "the code under test to wait on the clock")
}

// Waits is the stream NextWait reads: every duration passed to After, in
// order. A test that must show no wait was asked for reads it without
// blocking once the code under test is idle.
func (c *Clock) Waits() <-chan time.Duration { return c.waits }
