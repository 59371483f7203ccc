package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve asserts the sandbox's promise independently of how Resolve
// works: a path it accepts is absolute and clean, lies lexically inside a
// root, and has no symlink among its existing components, so opening or
// creating it cannot land outside the roots. ResolveWrite additionally
// never accepts a path with a .git component. And the I/O layer, given the
// path joined to the root without Resolve (as if a link had been swapped in
// after it), never opens or stats the file outside.
// Seeds: testdata/fuzz/FuzzResolve.
func FuzzResolve(f *testing.F) {
	root, root2, outside := hostileLayout(f, f.TempDir())
	ws, err := NewWorkspace(root, root2)
	if err != nil {
		f.Fatal(err)
	}
	defer ws.Close()
	secret, err := os.Stat(filepath.Join(outside, "secret.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add("inside.txt")
	f.Add("linkdir/../linkfile")
	f.Add("linkdir/secret.txt")
	f.Add("sub/up/outside/secret.txt")
	f.Fuzz(func(t *testing.T, p string) {
		if lexical := filepath.Join(root, p); strings.IndexByte(p, 0) < 0 && ws.Contains(lexical) {
			if fi, err := ws.Stat(lexical); err == nil && os.SameFile(fi, secret) {
				t.Fatalf("Stat(%q) reached the file outside", lexical)
			}
			if file, err := ws.Open(lexical); err == nil {
				fi, err := file.Stat()
				file.Close()
				if err == nil && os.SameFile(fi, secret) {
					t.Fatalf("Open(%q) opened the file outside", lexical)
				}
			}
		}
		for _, write := range []bool{false, true} {
			resolve := ws.Resolve
			if write {
				resolve = ws.ResolveWrite
			}
			got, err := resolve(p)
			if err != nil {
				continue
			}
			if !filepath.IsAbs(got) || filepath.Clean(got) != got {
				t.Fatalf("Resolve(%q) = %q: not absolute and clean", p, got)
			}
			if !within(root, got) && !within(root2, got) {
				t.Fatalf("Resolve(%q) = %q: outside the roots", p, got)
			}
			if link := firstSymlink(got); link != "" {
				t.Fatalf("Resolve(%q) = %q: goes through symlink %s", p, got, link)
			}
			if write {
				r := root
				if within(root2, got) {
					r = root2
				}
				rel, _ := filepath.Rel(r, got)
				for _, part := range strings.Split(rel, string(filepath.Separator)) {
					if strings.EqualFold(part, ".git") {
						t.Fatalf("ResolveWrite(%q) = %q: inside .git", p, got)
					}
				}
			}
		}
	})
}

// firstSymlink returns the first existing component of p that is a symlink.
func firstSymlink(p string) string {
	cur := string(filepath.Separator)
	for _, part := range splitPath(p) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		if err != nil {
			return "" // ENOTDIR and the like: nothing below can be opened
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}
