package lsp

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// A large document's garbage is given back once its synchronisation has
// paused for releaseIdleAfter: once for a burst, never for small texts,
// never after stop.
func TestIdleReleaseAfterAPause(t *testing.T) {
	// Every time.Sleep below runs inside synctest's bubble: it advances the
	// bubble's fake clock once every goroutine there is blocked, so the
	// pause itself is the behaviour under test and nothing waits on a real
	// clock.
	synctest.Test(t, func(t *testing.T) {
		var released atomic.Int32
		r := &idleRelease{release: func() { released.Add(1) }}
		r.handled(largeText - 1)
		time.Sleep(2 * releaseIdleAfter) // fake clock: a pause after a small text
		if n := released.Load(); n != 0 {
			t.Fatalf("%d releases after a small text, want 0", n)
		}
		for range 5 { // a burst of keystrokes in a large file
			r.handled(largeText)
			time.Sleep(releaseIdleAfter / 2) // fake clock: typing faster than the pause
		}
		if n := released.Load(); n != 0 {
			t.Fatalf("%d releases during the burst, want 0", n)
		}
		time.Sleep(releaseIdleAfter) // fake clock: the pause after the burst
		synctest.Wait()
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases after the pause, want 1", n)
		}
		r.handled(largeText)
		r.stop()
		time.Sleep(2 * releaseIdleAfter) // fake clock: long past a pause
		synctest.Wait()
		if n := released.Load(); n != 1 {
			t.Fatalf("%d releases after stop, want still 1", n)
		}
	})
}
