package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReadFileWindow20MB: read_file of 5 lines from line 1000 of a
// 20 MB file on disk, through DiskDocuments, with a ReadLog as a session
// has. B/op is what one such read costs the daemon's heap.
func BenchmarkReadFileWindow20MB(b *testing.B) {
	root := b.TempDir()
	ws, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	var text strings.Builder
	for i := 1; text.Len() < 20<<20; i++ {
		fmt.Fprintf(&text, "line %d of a twenty megabyte file, long enough to be typical\n", i)
	}
	if err := os.WriteFile(filepath.Join(ws.Roots()[0], "big.txt"), []byte(text.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	env := &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}, Reads: NewReadLog()}
	args := json.RawMessage(`{"path":"big.txt","offset":1000,"limit":5}`)
	tool := NewReadFile()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		res, err := tool.Run(context.Background(), args, env)
		if err != nil || !strings.Contains(res.Output, "  1000\tline 1000 ") {
			b.Fatalf("%q, %v", res.Output, err)
		}
	}
}

// BenchmarkDiskDocumentsRead20MB: DiskDocuments.Read of a whole 20 MB
// file, the first step of every edit of it; B/op near the file's size is
// one copy.
func BenchmarkDiskDocumentsRead20MB(b *testing.B) {
	ws, err := NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer ws.Close()
	path := filepath.Join(ws.Roots()[0], "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("twenty megabytes of text, line by line\n", 20<<20/39)), 0o644); err != nil {
		b.Fatal(err)
	}
	docs := &DiskDocuments{Workspace: ws}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if doc, err := docs.Read(context.Background(), path); err != nil || len(doc.Text) < 20<<20-39 {
			b.Fatalf("%d bytes, %v", len(doc.Text), err)
		}
	}
}
