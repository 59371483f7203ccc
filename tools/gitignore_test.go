package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// walkRel collects the files walkFiles visits, relative to root, sorted.
func walkRel(t *testing.T, ctx context.Context, root, start string, workers int) ([]string, error) {
	t.Helper()
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var mu sync.Mutex
	var got []string
	err = walkFiles(ctx, ws, start, workers, func(f walkedFile) {
		rel, _ := filepath.Rel(root, f.Abs)
		mu.Lock()
		got = append(got, filepath.ToSlash(rel))
		mu.Unlock()
	})
	slices.Sort(got)
	return got, err
}

func TestWalkIgnoreFileSyntax(t *testing.T) {
	root := t.TempDir()
	writeSearchFiles(t, root, map[string]string{
		".git/info/exclude":   "excluded-by-info\n",
		".gitignore":          "# a comment\r\n\r\n\\#hash.txt\r\n*.tmp\r\ndir-only/\r\nnested/**/deep.txt\r\n",
		"#hash.txt":           "",
		"# a comment":         "",
		"keep.txt":            "",
		"x.tmp":               "",
		"excluded-by-info":    "",
		"dir-only/a.txt":      "",
		"sub/dir-only":        "", // a file named like the dir-only pattern stays
		"nested/a/b/deep.txt": "",
		"nested/deep.txt":     "", // ** also matches zero directories
		"nested/a/other.txt":  "",
	})
	got, err := walkRel(t, context.Background(), root, root, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"# a comment", ".gitignore", "keep.txt", "nested/a/other.txt", "sub/dir-only"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestWalkSameResultForAnyWorkerCount(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".gitignore": "*.skip\n"}
	for i := range 300 {
		files[fmt.Sprintf("d%d/e%d/f%d.txt", i%7, i%3, i)] = ""
		files[fmt.Sprintf("d%d/g%d.skip", i%5, i)] = ""
	}
	writeSearchFiles(t, root, files)
	one, err := walkRel(t, context.Background(), root, root, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 301 {
		t.Fatalf("one worker found %d files, want 301", len(one))
	}
	for _, workers := range []int{2, 8, 0} {
		many, err := walkRel(t, context.Background(), root, root, workers)
		if err != nil || !slices.Equal(one, many) {
			t.Errorf("%d workers: %d files (err %v), one worker: %d", workers, len(many), err, len(one))
		}
	}
}

func TestWalkStopsWhenCancelled(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%d.txt", i%20, i)] = ""
	}
	writeSearchFiles(t, root, files)
	ctx, cancel := context.WithCancel(context.Background())
	visited := 0
	var mu sync.Mutex
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	err = walkFiles(ctx, ws, root, 2, func(walkedFile) {
		mu.Lock()
		defer mu.Unlock()
		visited++
		if visited == 5 {
			cancel()
		}
	})
	if err != context.Canceled {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if visited >= 200 {
		t.Errorf("visited all %d files after cancel", visited)
	}
}
