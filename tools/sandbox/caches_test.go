package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestCachesArePerWorkspaceAndPruned: each workspace gets its own cache
// dir, marked with its root; a dir whose workspace is gone is removed
// when another workspace opens, and a link a command left as the marker
// is replaced, not followed.
func TestCachesArePerWorkspaceAndPruned(t *testing.T) {
	home, base := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", "")
	gone := filepath.Join(base, "gone")
	kept := filepath.Join(base, "kept")
	for _, d := range []string{gone, kept} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goneCache := sandboxCacheDir(home, gone)
	keptCache := sandboxCacheDir(home, kept)
	if goneCache == "" || keptCache == "" || goneCache == keptCache {
		t.Fatalf("cache dirs %q and %q: want two", goneCache, keptCache)
	}
	if b, err := os.ReadFile(filepath.Join(keptCache, cacheOwner)); err != nil || string(b) != kept {
		t.Fatalf("owner of %s = %q, %v; want %s", keptCache, b, err, kept)
	}
	// A command of the kept workspace leaves a link as the marker.
	victim := filepath.Join(base, "victim")
	if err := os.WriteFile(victim, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(keptCache, cacheOwner)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(keptCache, cacheOwner)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if again := sandboxCacheDir(home, kept); again != keptCache {
		t.Fatalf("the kept workspace's cache moved: %q, want %q", again, keptCache)
	}
	pruneCaches(context.Background(), filepath.Dir(keptCache), keptCache)
	if _, err := os.Stat(goneCache); err == nil {
		t.Errorf("%s outlived its workspace", goneCache)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the marker's link was followed: %s now holds %q", victim, b)
	}
}
