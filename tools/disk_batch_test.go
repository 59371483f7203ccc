package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ApplyAll checks every file before writing any: one stale Before leaves
// all of them untouched; a sound batch writes, creates and deletes.
func TestDiskApplyAll(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "a\n")
	write("gone.txt", "bye\n")
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	d := &DiskDocuments{Workspace: ws}
	p := func(name string) string { return filepath.Join(root, name) }
	edits := []FileEdit{
		{Before: Doc{Path: p("a.txt"), Text: "a\n", Exists: true}, After: "A\n"},
		{Before: Doc{Path: p("dir/new.txt")}, After: "new\n"},
		{Before: Doc{Path: p("gone.txt"), Text: "stale\n", Exists: true}, Delete: true},
	}
	if err := d.ApplyAll(t.Context(), edits); !errors.Is(err, ErrChangedOnDisk) {
		t.Fatalf("stale batch: %v", err)
	}
	if b, _ := os.ReadFile(p("a.txt")); string(b) != "a\n" {
		t.Fatalf("a stale batch wrote a.txt: %q", b)
	}
	edits[2].Before.Text = "bye\n"
	if err := d.ApplyAll(t.Context(), edits); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "A\n", "dir/new.txt": "new\n"} {
		if b, err := os.ReadFile(p(name)); err != nil || string(b) != want {
			t.Errorf("%s = %q (%v)", name, b, err)
		}
	}
	if _, err := os.Stat(p("gone.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gone.txt: %v", err)
	}
	// Apply deletes too, after the same check.
	if err := d.Apply(t.Context(), FileEdit{Before: Doc{Path: p("a.txt"), Text: "a\n", Exists: true}, Delete: true}); !errors.Is(err, ErrChangedOnDisk) {
		t.Fatalf("stale delete: %v", err)
	}
	if err := d.Apply(t.Context(), FileEdit{Before: Doc{Path: p("a.txt"), Text: "A\n", Exists: true}, Delete: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p("a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a.txt: %v", err)
	}
}
