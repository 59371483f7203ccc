package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// textOf is n bytes of text: lines of 'a's.
func textOf(n int) string {
	line := strings.Repeat("a", 63) + "\n"
	s := strings.Repeat(line, n/len(line)+1)
	return s[:n-1] + "\n"
}

func TestCheckSizeEdge(t *testing.T) {
	if err := CheckSize("a.txt", MaxFileBytes, false); err != nil {
		t.Fatalf("exactly at the limit: %v", err)
	}
	err := CheckSize("logs/a.txt", MaxFileBytes+1, false)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, ErrTooLarge) || tl.Size != MaxFileBytes+1 {
		t.Fatalf("one byte over: %v, want a *TooLargeError matching ErrTooLarge", err)
	}
	for _, part := range []string{"logs/a.txt is 32.0 MiB (33554433 bytes)", "over the 32.0 MiB limit", "read_file with offset and limit", "run_bash"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("%q does not say %q", err, part)
		}
	}
	err = CheckSize("a.txt", MaxFileBytes+1, true)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "a.txt would be 32.0 MiB (33554433 bytes) after this change") {
		t.Fatalf("a result over the limit: %v", err)
	}
}

// The disk's Read at the limit's edge: exactly MaxFileBytes is read, one
// byte more is refused with the policy's error naming the file.
func TestDiskReadAtTheLimit(t *testing.T) {
	e := newFileToolEnv(t)
	p := e.write(t, "edge.txt", textOf(MaxFileBytes))
	doc, err := e.env.Docs.Read(context.Background(), p)
	if err != nil || len(doc.Text) != MaxFileBytes {
		t.Fatalf("at the limit: %d bytes, %v", len(doc.Text), err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("x"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = e.env.Docs.Read(context.Background(), p)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Path != "edge.txt" || tl.Size != MaxFileBytes+1 {
		t.Fatalf("one byte over: %v, want a TooLargeError for edge.txt of %d bytes", err, MaxFileBytes+1)
	}
}

// edit_file and write_file under the policy, on disk: a file over the
// limit is refused before anything is asked, and so is a result that would
// be over it; read_file still reads a window of the large file; an edit
// leaving a file at the limit lands.
func TestFileToolsUnderTheSizePolicy(t *testing.T) {
	e := newFileToolEnv(t)
	// Over the limit: text at the head, a hole after (sparse, quick to make).
	big := e.write(t, "big.log", "first line\nsecond line\n"+strings.Repeat("more\n", 2000))
	if err := os.Truncate(big, MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	e.write(t, "edge.txt", "b\n"+textOf(MaxFileBytes-2))

	tests := []struct {
		name    string
		tool    Tool
		args    map[string]any
		wantErr string // "" for success
	}{
		{"edit a file over the limit", NewEditFile(), map[string]any{"path": "big.log", "old_string": "first", "new_string": "1st"},
			"big.log is 32.0 MiB (33554433 bytes), over the 32.0 MiB limit"},
		{"write a file over the limit", NewWriteFile(), map[string]any{"path": "big.log", "content": "small now\n"},
			"big.log is 32.0 MiB (33554433 bytes), over the 32.0 MiB limit"},
		{"write a result over the limit", NewWriteFile(), map[string]any{"path": "new.txt", "content": textOf(MaxFileBytes + 1)},
			"new.txt would be 32.0 MiB (33554433 bytes) after this change"},
		{"edit growing a file past the limit", NewEditFile(), map[string]any{"path": "edge.txt", "old_string": "b\n", "new_string": "bb\n"},
			"edge.txt would be 32.0 MiB (33554433 bytes) after this change"},
		{"edit keeping a file at the limit", NewEditFile(), map[string]any{"path": "edge.txt", "old_string": "b\n", "new_string": "c\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, derr := tt.tool.Describe(t.Context(), argsJSON(t, tt.args), e.env)
			_, err := runTool(t, tt.tool, e.env, tt.args)
			if tt.wantErr == "" {
				if derr != nil || err != nil {
					t.Fatalf("Describe: %v, Run: %v", derr, err)
				}
				return
			}
			// Refused in Describe already: nobody is asked to approve it.
			for _, err := range []error{derr, err} {
				if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want the size policy's %q", err, tt.wantErr)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(e.root, "new.txt")); !os.IsNotExist(err) {
		t.Errorf("a write over the limit created the file: %v", err)
	}
	if got := e.read(t, "edge.txt"); len(got) != MaxFileBytes || !strings.HasPrefix(got, "c\n") {
		t.Errorf("edge.txt: %d bytes starting %q, want the edit at the limit landed", len(got), got[:2])
	}

	got, err := runTool(t, NewReadFile(), e.env, map[string]any{"path": "big.log", "offset": 2, "limit": 1})
	want := "     2\tsecond line\n… more lines follow (the file is 32.0 MiB); call read_file with offset 3 to read further\n"
	if err != nil || got != want {
		t.Fatalf("read_file window of a file over the limit: %q, %v; want %q", got, err, want)
	}
}

// grep searches a file over the limit (it streams) and says that the file
// is over it, so the model reads around the match with offset/limit rather
// than trying to edit it; a file within the limit gets no note.
func TestGrepNotesFilesOverTheLimit(t *testing.T) {
	e := newFileToolEnv(t)
	big := e.write(t, "big.log", "nothing\nneedle here\n"+strings.Repeat("pad\n", 3000)) // text past the sniffed 8 KiB
	if err := os.Truncate(big, MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	e.write(t, "small.txt", "a needle too\n")
	got, err := runTool(t, NewGrep(), e.env, map[string]any{"pattern": "needle"})
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"big.log:2: needle here", "small.txt:1: a needle too",
		"[over the 32.0 MiB size limit: big.log (32.0 MiB). read_file with offset and limit reads the lines around a match; edit_file and write_file refuse these files.]"} {
		if !strings.Contains(got, part) {
			t.Errorf("grep output %q lacks %q", got, part)
		}
	}
	if strings.Contains(got, "small.txt (") {
		t.Errorf("grep noted a file within the limit: %q", got)
	}
	got, err = runTool(t, NewGrep(), e.env, map[string]any{"pattern": "needle", "path": "small.txt"})
	if err != nil || strings.Contains(got, "size limit") {
		t.Fatalf("grep of a small file: %q, %v", got, err)
	}
}
