package contentstore

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Collect keeps exactly the live texts and the bases their deltas need:
// a live text lost, or a dead one kept, fails.
func TestCollectKeepsLiveAndDeletesDead(t *testing.T) {
	stores(t, func(t *testing.T, s *Store) {
		v0 := big(20 << 10)
		h0 := must(t)(s.Put(v0))
		v1 := v0[:100] + "one" + v0[100:]
		h1 := must(t)(s.PutDelta(v1, h0, v0))
		v2 := v1[:200] + "two" + v1[200:]
		h2 := must(t)(s.PutDelta(v2, h1, v1))
		other := big(3<<10) + "other"
		ho := must(t)(s.Put(other))
		dead := "a superseded text\n"
		hd := must(t)(s.Put(dead))

		// v2 is live: v1 and v0 are its chain and stay; other and dead go.
		n, err := s.Collect([]Hash{h2, Empty})
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("removed %d texts, want 2", n)
		}
		mustGet(t, s, h2, v2)
		for _, h := range []Hash{h0, h1, h2} {
			if !s.Has(h) {
				t.Errorf("%s (needed by a live delta) was deleted", h)
			}
		}
		for _, h := range []Hash{ho, hd} {
			if s.Has(h) {
				t.Errorf("%s (dead) was kept", h)
			}
		}
		if s.dir != "" {
			if got := names(t, s.dir); !slices.Equal(got, sorted(h0, h1, h2)) {
				t.Errorf("files %v, want %v", got, sorted(h0, h1, h2))
			}
		}

		// Nothing live: everything goes.
		if _, err := s.Collect(nil); err != nil {
			t.Fatal(err)
		}
		for _, h := range []Hash{h0, h1, h2} {
			if s.Has(h) {
				t.Errorf("%s kept with nothing live", h)
			}
		}
	})
}

// What a crash left of a write (a temporary file) is collected; a file
// that is not the store's is left alone.
func TestCollectRemovesTornWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	s := Open(dir, nil)
	h := must(t)(s.Put("kept\n"))
	for _, name := range []string{tmpPrefix + "123", "README"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Collect([]Hash{h}); err != nil {
		t.Fatal(err)
	}
	if got, want := names(t, dir), []string{h.String(), "README"}; !slices.Equal(got, want) {
		t.Fatalf("files %v, want %v", got, want)
	}
}

// A store that never wrote has nothing to collect, and no directory is made.
func TestCollectBeforeAnyWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	if n, err := Open(dir, nil).Collect(nil); n != 0 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("collect made the directory: %v", err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func sorted(hs ...Hash) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.String())
	}
	slices.Sort(out)
	return out
}

// A detached store (its session's records stopped being written) keeps
// what its directory holds: the last records written name those texts.
// What it kept in memory since is still collected.
func TestDetachedStoreKeepsItsDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s.content")
	s := Open(dir, nil)
	onDisk := must(t)(s.Put("named by a written record\n"))
	s.Detach()
	inMem := must(t)(s.Put("kept in memory after the detach\n"))
	if got := names(t, dir); !slices.Equal(got, sorted(onDisk)) {
		t.Fatalf("files after the detach: %v", got)
	}
	if _, err := s.Collect(nil); err != nil {
		t.Fatal(err)
	}
	if got := names(t, dir); !slices.Equal(got, sorted(onDisk)) {
		t.Errorf("a detached store's collection changed its directory: %v", got)
	}
	if s.Has(inMem) {
		t.Error("a dead text in memory was kept")
	}
}
