//go:build unix

package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestWalkSkipsSpecialFiles(t *testing.T) {
	root := t.TempDir()
	writeSearchFiles(t, root, map[string]string{"a.txt": ""})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink(filepath.Join(root, "a.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	got, err := walkRel(t, context.Background(), root, root, 2)
	if err != nil || strings.Join(got, ",") != "a.txt" {
		t.Errorf("got %q, err %v; want only a.txt (no fifo, no symlink)", got, err)
	}
}
