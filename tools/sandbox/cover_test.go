package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// cover splits only the directories above an excluded path, leaves the
// excluded ones and symlinks out, and lists the split ones as ancestors.
func TestCover(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/secret", "a/open", "b"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a", "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a", "secret"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	grants, ancestors := cover(root, []string{filepath.Join(root, "a", "secret")})
	var got []string
	for _, g := range grants {
		rel, _ := filepath.Rel(root, g.Path)
		if g.Dir {
			rel += "/"
		}
		got = append(got, rel)
	}
	slices.Sort(got)
	if want := []string{"a/file", "a/open/", "b/"}; !slices.Equal(got, want) {
		t.Errorf("grants %v, want %v", got, want)
	}
	if want := []string{root, filepath.Join(root, "a")}; !slices.Equal(ancestors, want) {
		t.Errorf("ancestors %v, want %v", ancestors, want)
	}
	if g, _ := cover(root, nil); len(g) != 1 || g[0].Path != root {
		t.Errorf("nothing excluded: grants %v, want the root alone", g)
	}
	if g, _ := cover(filepath.Join(root, "a", "secret"), []string{filepath.Join(root, "a")}); g != nil {
		t.Errorf("root inside an excluded path: grants %v, want none", g)
	}
}
