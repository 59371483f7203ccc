package lsp

import (
	"sync"

	"github.com/agent-lsp/agent-lsp/agent"
)

// lensCacheBytes bounds the restore texts a session's lens cache keeps,
// and lensCacheFiles its files: hunks that would pass are found again
// each time rather than kept (no cache holds whole files).
const (
	lensCacheBytes = 1 << 20
	lensCacheFiles = 64
)

// lensKey is what a file's hunks depend on: the texts before and after
// the agent's changes, the buffer, and the checkpoint a revert names.
type lensKey struct {
	before, agent, current agent.TextRef
	checkpointID           string
}

type lensEntry struct {
	key   lensKey
	hunks []lensHunk
	bytes int
}

// lensCache keeps a session's last hunks per file (canonical path), so
// that codeLens requests over files nobody changed read no stored text.
// The zero value is ready.
type lensCache struct {
	mu    sync.Mutex
	files map[string]lensEntry
	bytes int
}

func (c *lensCache) get(path string, k lensKey) ([]lensHunk, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.files[path]
	if !ok || e.key != k {
		return nil, false
	}
	return e.hunks, true
}

func (c *lensCache) put(path string, k lensKey, hunks []lensHunk) {
	n := 0
	for _, h := range hunks {
		n += len(h.restore)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.files[path]; ok {
		c.bytes -= old.bytes
		delete(c.files, path)
	}
	if n > lensCacheBytes {
		return
	}
	if c.files == nil || len(c.files) >= lensCacheFiles || c.bytes+n > lensCacheBytes {
		c.files, c.bytes = map[string]lensEntry{}, 0 // start over: the files asked about lately refill it
	}
	c.files[path] = lensEntry{key: k, hunks: hunks, bytes: n}
	c.bytes += n
}
