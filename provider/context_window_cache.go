package provider

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"
)

// windowRetryAfter is how long a failed discovery is remembered: a local
// server started after agent-lsp is asked again by a later session.
const windowRetryAfter = time.Minute

// WindowCache discovers each model's window once (per base URL, model
// and setting) and remembers the answer for the life of the process: a
// server's window does not change under a run. A failure is remembered
// for windowRetryAfter only.
type WindowCache struct {
	Client *http.Client // nil: DiscoverContextWindow's own
	mu     sync.Mutex
	known  map[windowKey]*windowEntry
}

type windowKey struct {
	baseURL, model string
	setting        int
}

type windowEntry struct {
	done   chan struct{}
	window int
	source string
	err    error
	at     time.Time // when it ended
}

// stale reports whether e is a failure old enough to ask again; under mu.
func (e *windowEntry) stale(now time.Time) bool {
	select {
	case <-e.done:
		return e.err != nil && now.Sub(e.at) > windowRetryAfter
	default:
		return false
	}
}

// Window returns cfg's window, discovering it on the first call; callers
// asking at once wait for that one discovery (or their ctx). A failure
// that is the caller's ctx is not remembered.
func (c *WindowCache) Window(ctx context.Context, cfg Config) (int, string, error) {
	k := windowKey{strings.TrimRight(cfg.BaseURL, "/"), cfg.Model, cfg.ContextWindow}
	c.mu.Lock()
	if c.known == nil {
		c.known = map[windowKey]*windowEntry{}
	}
	e, ok := c.known[k]
	if ok && e.stale(time.Now()) {
		ok = false
	}
	if !ok {
		e = &windowEntry{done: make(chan struct{})}
		c.known[k] = e
	}
	c.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.window, e.source, e.err
		case <-ctx.Done():
			return 0, "", ctx.Err()
		}
	}
	e.window, e.source, e.err = DiscoverContextWindow(ctx, cfg, c.Client)
	e.at = time.Now()
	if ctx.Err() != nil && e.err != nil { // cancelled, not answered: a later caller asks again
		c.mu.Lock()
		delete(c.known, k)
		c.mu.Unlock()
	}
	close(e.done)
	return e.window, e.source, e.err
}
