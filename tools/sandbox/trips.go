package sandbox

import (
	"path/filepath"
	"strings"
	"sync"
)

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

// tripMarker starts the line a tripwire writes into its command's output
// for each protected path the command changed and that was put back.
const tripMarker = "agent-lsp sandbox: put back "

// tripsIn returns the paths output's trip lines name.
func tripsIn(output string) []string {
	var out []string
	for _, line := range strings.Split(output, "\n") {
		if p, ok := strings.CutPrefix(line, tripMarker); ok && filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	return out
}

// Tripped reports whether the command whose output this is changed a
// protected path that had to be put back (see tripwire): it may have
// ended by itself, with status 0, and still be blocked. The caller asks
// once it has read the output to its end, which the tripwire holds open
// until it is done.
func (s *Sandbox) Tripped(output string) bool {
	return len(tripsIn(output)) > 0
}
