package lsp

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
)

// The lens cache answers only for the exact texts its hunks came from,
// and keeps no more than its bounds: hunks whose restore text is bigger
// than the cache are found again each time.
func TestLensCache(t *testing.T) {
	var c lensCache
	k := lensKey{before: agent.RefOf("before"), agent: agent.RefOf("agent"), current: agent.RefOf("now"), checkpointID: "cp1"}
	if _, ok := c.get("/a", k); ok {
		t.Fatal("a hit in an empty cache")
	}
	hunks := []lensHunk{{start: 1, end: 2, restore: "x", checkpointID: "cp1"}}
	c.put("/a", k, hunks)
	if got, ok := c.get("/a", k); !ok || len(got) != 1 || got[0] != hunks[0] {
		t.Fatalf("get = %v, %v", got, ok)
	}
	typed := k
	typed.current = agent.RefOf("now, and the user typed")
	if _, ok := c.get("/a", typed); ok {
		t.Fatal("a hit for another buffer")
	}
	if _, ok := c.get("/b", k); ok {
		t.Fatal("a hit for another file")
	}
	c.put("/a", typed, []lensHunk{{restore: strings.Repeat("y", lensCacheBytes+1)}})
	if _, ok := c.get("/a", typed); ok {
		t.Fatal("hunks bigger than the cache were kept")
	}
	if _, ok := c.get("/a", k); ok {
		t.Fatal("the file's older hunks outlived a newer put")
	}
	for i := range lensCacheFiles + 1 {
		c.put(strings.Repeat("/f", i+1), k, hunks)
	}
	if len(c.files) > lensCacheFiles || c.bytes > lensCacheBytes {
		t.Fatalf("%d files, %d bytes: over the bounds", len(c.files), c.bytes)
	}
}
