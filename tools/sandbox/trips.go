package sandbox

import "sync"

// trips records what tripwires caught, for Explain.
type trips struct {
	mu    sync.Mutex
	paths []string
}

func (t *trips) add(p string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.paths = append(t.paths, p)
}

// take returns what was caught since the last call.
func (t *trips) take() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.paths
	t.paths = nil
	return p
}
