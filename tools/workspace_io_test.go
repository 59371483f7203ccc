package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The I/O methods are given paths Resolve would refuse, as if a symlink
// had been swapped in after Resolve looked: the Root must refuse them by
// itself. These are the race test's outcomes, made deterministic.
func TestWorkspaceIOConfinedWithoutResolve(t *testing.T) {
	root, root2, outside := hostileLayout(t, t.TempDir())
	ws, err := NewWorkspace(root, root2)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	in := func(p string) string { return filepath.Join(root, p) }

	for _, p := range []string{"linkdir/secret.txt", "linkfile", "sub/up/outside/secret.txt", "dangling"} {
		if f, err := ws.Open(in(p)); err == nil {
			f.Close()
			t.Errorf("Open(%s) followed a link outside", p)
		}
		if _, err := ws.Stat(in(p)); err == nil {
			t.Errorf("Stat(%s) followed a link outside", p)
		}
	}
	if _, err := ws.ReadDir(in("linkdir")); err == nil {
		t.Error("ReadDir(linkdir) listed the outside directory")
	}
	if err := walkFiles(context.Background(), ws, in("linkdir"), 1, func(walkedFile) {}); err == nil {
		t.Error("walkFiles(linkdir) walked the outside directory")
	}
	if f, err := ws.Open(in("inlink")); err != nil {
		t.Errorf("a link inside the workspace must still open: %v", err)
	} else {
		f.Close()
	}

	writes := []struct{ path, want string }{
		{"linkdir/new.txt", "symlink"},
		{"linkdir/deep/er/new.txt", "symlink"},
		{"sub/up/outside/new.txt", "symlink"},
		{"gitlink/hooks/pre-commit", "symlink"}, // a link to .git, swapped in after ResolveWrite
		{".git/hooks/pre-commit", "inside .git"},
		{"nested/.GIT/x", "inside .git"},
	}
	for _, w := range writes {
		err := ws.writeFile(in(w.path), "planted\n")
		if err == nil || !strings.Contains(err.Error(), w.want) {
			t.Errorf("writeFile(%s): %v, want an error mentioning %q", w.path, err, w.want)
		}
	}
	if err := ws.MkdirAll(in("linkdir/made")); err == nil {
		t.Error("MkdirAll through linkdir succeeded")
	}
	if err := ws.removeFile(in("linkdir/secret.txt")); err == nil {
		t.Error("removeFile through linkdir succeeded")
	}
	// A write to a name that is a link replaces the link: the file it
	// points to outside is not created.
	if err := ws.writeFile(in("dangling"), "inside now\n"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(in("dangling")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("dangling: %v, %v; want a regular file in place of the link", fi, err)
	}
	for _, p := range []string{"new.txt", "deep", "made", "hooks"} {
		if _, err := os.Lstat(filepath.Join(outside, p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("outside/%s exists: written outside the workspace", p)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "secret.txt")); err != nil {
		t.Errorf("outside/secret.txt: %v", err)
	}
	if _, err := os.Lstat(in(".git/hooks/pre-commit")); !errors.Is(err, fs.ErrNotExist) {
		t.Error(".git/hooks/pre-commit was written")
	}
}

func TestWorkspaceWriteFileIsAtomicAndKeepsMode(t *testing.T) {
	dir := t.TempDir()
	ws, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	root := ws.Roots()[0]
	p := filepath.Join(root, "script.sh")
	if err := os.WriteFile(p, []byte("old\n"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o750); err != nil {
		t.Fatal(err)
	}
	if err := ws.writeFile(p, "new\n"); err != nil {
		t.Fatal(err)
	}
	if err := ws.writeFile(filepath.Join(root, "a", "b", "new.txt"), "x"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("mode after write: %v, %v; want 0750 kept", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Join(root, "a", "b", "new.txt")); err != nil || fi.Mode().Perm() != newFileMode {
		t.Errorf("new file: %v, %v; want %v", fi, err, newFileMode)
	}
	if got, _ := os.ReadFile(p); string(got) != "new\n" {
		t.Errorf("content %q", got)
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), "agent-tmp") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
	if err := ws.writeFile(filepath.Join(root, "a"), "x"); err == nil {
		t.Error("writing over a directory succeeded")
	}
}

func TestWorkspaceClosed(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := ws.Roots()[0]
	if err := ws.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Stat(root); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Stat after Close: %v, want os.ErrClosed", err)
	}
	if got, err := ws.Resolve("x"); err != nil || got != filepath.Join(root, "x") {
		t.Errorf("Resolve after Close: %q, %v", got, err)
	}
}

// TestWorkspaceRootReplaced: a root deleted and made again while the
// workspace is open (a fresh clone) is reopened, so a write lands in the
// directory the name now holds, not in the deleted one.
func TestWorkspaceRootReplaced(t *testing.T) {
	ws, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	root := ws.Roots()[0]
	if err := ws.writeFile(filepath.Join(root, "before.txt"), "1"); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(root); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "after.txt")
	if err := ws.writeFile(p, "2"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(p); err != nil || string(got) != "2" {
		t.Errorf("after.txt: %q, %v; want the write in the new directory", got, err)
	}
}
