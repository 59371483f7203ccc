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

// bigSource returns a source-like text of about size bytes (lines of 40
// to 80 characters, a little indentation) with the line "\tmarker = 0"
// in its middle, the one place a benchmark edit changes.
func bigSource(size int) string {
	var b strings.Builder
	b.Grow(size + 128)
	marked := false
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\tvalue%07d := compute(%d, %q) // line %d\n", i, i*7, strings.Repeat("x", i%30), i)
		if !marked && b.Len() >= size/2 {
			b.WriteString("\tmarker = 0\n")
			marked = true
		}
	}
	return b.String()
}

// editToggle is a one-character edit_file call on the marker line: the
// i-th call turns 0 into 1, the next turns it back.
func editToggle(rel string, i int) json.RawMessage {
	from, to := "marker = 0", "marker = 1"
	if i%2 == 1 {
		from, to = to, from
	}
	raw, err := json.Marshal(editFileArgs{Path: rel, OldString: from, NewString: to})
	if err != nil {
		panic(err)
	}
	return raw
}

// benchmarkEditFile measures one edit_file call as the agent makes it
// (the registry: Describe with its diff and hunks, then Run) on a file of
// size bytes on disk, after the model read it whole (the read log holds
// what it read).
func benchmarkEditFile(b *testing.B, size int) {
	root := filepath.Join(b.TempDir(), "ws")
	if err := os.Mkdir(root, 0o755); err != nil {
		b.Fatal(err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		b.Fatal(err)
	}
	text := bigSource(size)
	if strings.Count(text, "marker = 0") != 1 {
		b.Fatalf("the source has %d markers", strings.Count(text, "marker = 0"))
	}
	abs := filepath.Join(ws.Roots()[0], "big.go")
	if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	env := &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}, Reads: NewReadLog()}
	env.Reads.Record(abs, text)
	text = ""
	reg := NewRegistry()
	if err := reg.Add(NewEditFile()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := reg.Execute(context.Background(), env,
			[]Call{{ID: "c", Name: "edit_file", Args: editToggle("big.go", i)}}, ExecOptions{})
		if out[0].Status != StatusCompleted {
			b.Fatalf("edit %d: %s: %s", i, out[0].Status, out[0].Output)
		}
	}
}

func BenchmarkEditFile1MB(b *testing.B)  { benchmarkEditFile(b, 1<<20) }
func BenchmarkEditFile5MB(b *testing.B)  { benchmarkEditFile(b, 5<<20) }
func BenchmarkEditFile20MB(b *testing.B) { benchmarkEditFile(b, 20<<20) }

// benchmarkPlainReplace is the reference the issue measures edit_file
// against: read the file, replace the string, write the file, in plain Go.
func benchmarkPlainReplace(b *testing.B, size int) {
	path := filepath.Join(b.TempDir(), "big.go")
	if err := os.WriteFile(path, []byte(bigSource(size)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from, to := "marker = 0", "marker = 1"
		if i%2 == 1 {
			from, to = to, from
		}
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), from, to, 1)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlainReplace1MB(b *testing.B)  { benchmarkPlainReplace(b, 1<<20) }
func BenchmarkPlainReplace5MB(b *testing.B)  { benchmarkPlainReplace(b, 5<<20) }
func BenchmarkPlainReplace20MB(b *testing.B) { benchmarkPlainReplace(b, 20<<20) }
