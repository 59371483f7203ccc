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
	// Dirs without an owner: an empty one goes, one holding anything stays.
	parent := filepath.Dir(keptCache)
	emptyOrphan, fullOrphan := filepath.Join(parent, "empty-0123"), filepath.Join(parent, "full-0123")
	for _, d := range []string{emptyOrphan, fullOrphan} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(fullOrphan, "cached"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	pruneCaches(context.Background(), parent, keptCache)
	if _, err := os.Stat(goneCache); err == nil {
		t.Errorf("%s outlived its workspace", goneCache)
	}
	if _, err := os.Stat(emptyOrphan); err == nil {
		t.Errorf("an empty cache dir without an owner was kept")
	}
	if _, err := os.Stat(filepath.Join(fullOrphan, "cached")); err != nil {
		t.Errorf("a cache dir without an owner that holds files was removed: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "mine" {
		t.Errorf("the marker's link was followed: %s now holds %q", victim, b)
	}
}
