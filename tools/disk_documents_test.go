package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestDiskDocumentsRead(t *testing.T) {
	e := newFileToolEnv(t)
	docs := e.env.Docs
	ctx := context.Background()
	p := e.write(t, "a.txt", "hello\n")

	doc, err := docs.Read(ctx, p)
	if err != nil || !doc.Exists || doc.Text != "hello\n" || doc.Path != p || doc.Version != nil {
		t.Fatalf("Read existing: %+v, %v", doc, err)
	}
	doc, err = docs.Read(ctx, filepath.Join(e.root, "missing.txt"))
	if err != nil || doc.Exists {
		t.Fatalf("Read missing: %+v, %v; want Exists=false and no error", doc, err)
	}
	if _, err := docs.Read(ctx, e.root); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Read directory: %v", err)
	}
	if _, err := docs.Read(ctx, "/etc/passwd"); err == nil {
		t.Fatal("read outside the workspace allowed")
	}
	fifo := filepath.Join(e.root, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		if _, err := docs.Read(ctx, fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Read FIFO: %v", err)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := docs.Read(cancelled, p); !errors.Is(err, context.Canceled) {
		t.Fatalf("Read with cancelled ctx: %v", err)
	}
}

func TestDiskDocumentsApply(t *testing.T) {
	ctx := context.Background()
	t.Run("new file gets 0644 and parents", func(t *testing.T) {
		e := newFileToolEnv(t)
		p := filepath.Join(e.root, "new", "dir", "f.go")
		before, _ := e.env.Docs.Read(ctx, p)
		if err := e.env.Docs.Apply(ctx, FileEdit{Before: before, After: "package f\n"}); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o644 || e.read(t, "new/dir/f.go") != "package f\n" {
			t.Fatalf("new file: %v %v", fi, err)
		}
	})
	t.Run("mode kept and no temp file left", func(t *testing.T) {
		e := newFileToolEnv(t)
		p := e.write(t, "run.sh", "echo a\n")
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
		before, _ := e.env.Docs.Read(ctx, p)
		if err := e.env.Docs.Apply(ctx, FileEdit{Before: before, After: "echo b\n"}); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != 0o755 || e.read(t, "run.sh") != "echo b\n" {
			t.Fatalf("mode %v, text %q", fi.Mode(), e.read(t, "run.sh"))
		}
		entries, _ := os.ReadDir(e.root)
		if len(entries) != 1 {
			t.Fatalf("directory holds %d entries after the write, want only run.sh", len(entries))
		}
	})
	t.Run("changed on disk is refused", func(t *testing.T) {
		e := newFileToolEnv(t)
		p := e.write(t, "a.txt", "one\n")
		before, _ := e.env.Docs.Read(ctx, p)
		e.write(t, "a.txt", "someone else\n")
		err := e.env.Docs.Apply(ctx, FileEdit{Before: before, After: "two\n"})
		if !errors.Is(err, ErrChangedOnDisk) || !strings.Contains(err.Error(), "file changed on disk since it was read; read it again") {
			t.Fatalf("got %v", err)
		}
		if e.read(t, "a.txt") != "someone else\n" {
			t.Fatal("the concurrent change was overwritten")
		}
	})
	t.Run("created meanwhile is refused", func(t *testing.T) {
		e := newFileToolEnv(t)
		p := filepath.Join(e.root, "b.txt")
		before, _ := e.env.Docs.Read(ctx, p)
		e.write(t, "b.txt", "")
		if err := e.env.Docs.Apply(ctx, FileEdit{Before: before, After: "x"}); !errors.Is(err, ErrChangedOnDisk) {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("write through an inside symlink lands on the target", func(t *testing.T) {
		e := newFileToolEnv(t)
		target := e.write(t, "real.txt", "r\n")
		link := filepath.Join(e.root, "link.txt")
		if err := os.Symlink("real.txt", link); err != nil {
			t.Fatal(err)
		}
		before, _ := e.env.Docs.Read(ctx, link)
		if before.Path != target {
			t.Fatalf("Read through link gives path %q, want the target %q", before.Path, target)
		}
		if err := e.env.Docs.Apply(ctx, FileEdit{Before: before, After: "new\n"}); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 || e.read(t, "real.txt") != "new\n" {
			t.Fatal("the symlink was replaced or the target not written")
		}
	})
	t.Run("git and outside refused", func(t *testing.T) {
		e := newFileToolEnv(t)
		cfg := e.write(t, ".git/config", "[core]\n")
		for _, p := range []string{cfg, filepath.Join(filepath.Dir(e.root), "outside.txt")} {
			err := e.env.Docs.Apply(ctx, FileEdit{Before: Doc{Path: p}, After: "x"})
			if err == nil {
				t.Errorf("Apply to %s allowed", p)
			}
		}
	})
	t.Run("concurrent edits of one file: one wins, one is refused", func(t *testing.T) {
		e := newFileToolEnv(t)
		p := e.write(t, "c.txt", "base\n")
		before, _ := e.env.Docs.Read(ctx, p)
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = e.env.Docs.Apply(ctx, FileEdit{Before: before, After: strings.Repeat("x", i+1)})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrChangedOnDisk) {
				t.Errorf("unexpected error %v", err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d applies succeeded against the same Before, want exactly 1", ok)
		}
	})
}
