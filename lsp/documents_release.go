package lsp

import (
	"runtime/debug"
	"sync"
	"time"
)

// largeText is the document size from which handling its text (an open,
// a change, a close) leaves enough garbage to give back to the system:
// the frame and the text it replaced, twice the size; below it that is
// under 4 MiB. (At 8 MiB, a 5 MiB file closed left the daemon 10.6 MiB
// above idle for over a minute.)
const largeText = 2 << 20

// releaseIdleAfter is how long the text synchronisation of a large
// document must have been quiet before its garbage is given back: long
// enough that a burst of keystrokes pays for one collection, short enough
// that the daemon is back to its size before anyone looks.
const releaseIdleAfter = 250 * time.Millisecond

// idleRelease returns freed heap to the operating system once the editor
// has stopped sending a large document for releaseIdleAfter. Go keeps
// freed heap mapped until its background scavenger returns it, slowly: a
// 21 MB file opened once left the daemon 90 MB larger, for minutes. Every
// change of such a file replaces a 21 MB string, so the release waits for
// a pause rather than running after each one. Its zero value is ready;
// stop ends it (the timer's goroutine runs only while a release is due).
type idleRelease struct {
	// release gives the memory back (nil: debug.FreeOSMemory; tests count).
	release func()

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// handled notes that n bytes of document text were handled.
func (r *idleRelease) handled(n int) {
	if n < largeText {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stopped:
	case r.timer == nil:
		release := r.release
		if release == nil {
			release = debug.FreeOSMemory
		}
		r.timer = time.AfterFunc(releaseIdleAfter, release)
	default:
		r.timer.Reset(releaseIdleAfter)
	}
}

// stop cancels a pending release: the conversation is over.
func (r *idleRelease) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	if r.timer != nil {
		r.timer.Stop()
	}
}
