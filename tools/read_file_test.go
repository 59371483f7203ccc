package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%6d\tline %d\n", i, i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	e := newFileToolEnv(t)
	var ten strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&ten, "line %d\n", i)
	}
	e.write(t, "ten.txt", ten.String())
	e.write(t, "crlf.txt", "a\r\nb\r\n")
	e.write(t, "nofinal.txt", "x\ny")
	e.write(t, "empty.txt", "")
	e.write(t, "long.txt", strings.Repeat("é", 1500)+"\nshort\n") // 3000 bytes
	e.write(t, "bin.dat", "PK\x03\x04\x00\x00binary")
	e.write(t, "latin1.txt", strings.Repeat("caf\xe9 \xe0 la cr\xe8me\n", 20))
	e.write(t, "dir/a.go", "")
	e.write(t, "dir/sub/b.go", "")

	tests := []struct {
		name    string
		args    map[string]any
		want    string
		wantErr string
	}{
		{name: "whole file", args: map[string]any{"path": "ten.txt"}, want: numbered(1, 10)},
		{name: "window", args: map[string]any{"path": "ten.txt", "offset": 3, "limit": 2},
			want: numbered(3, 4) + "… 6 more lines; call read_file with offset 5 to read further\n"},
		{name: "offset zero means start", args: map[string]any{"path": "ten.txt", "offset": 0, "limit": 1},
			want: numbered(1, 1) + "… 9 more lines; call read_file with offset 2 to read further\n"},
		{name: "tail window", args: map[string]any{"path": "ten.txt", "offset": 9}, want: numbered(9, 10)},
		{name: "crlf shown without CR", args: map[string]any{"path": "crlf.txt"}, want: "     1\ta\n     2\tb\n"},
		{name: "no final newline", args: map[string]any{"path": "nofinal.txt"}, want: "     1\tx\n     2\ty\n"},
		{name: "empty", args: map[string]any{"path": "empty.txt"}, want: "(empty file)"},
		{name: "long line cut", args: map[string]any{"path": "long.txt"},
			want: "     1\t" + strings.Repeat("é", 1000) + " … [line cut: 1000 more bytes]\n     2\tshort\n"},
		{name: "offset past end", args: map[string]any{"path": "ten.txt", "offset": 11}, wantErr: "offset 11 is past the end of ten.txt (10 lines)"},
		{name: "negative offset", args: map[string]any{"path": "ten.txt", "offset": -1}, wantErr: "offset must be a line number ≥ 1"},
		{name: "binary", args: map[string]any{"path": "bin.dat"}, wantErr: "binary file (12 bytes); not shown"},
		{name: "mostly invalid utf8", args: map[string]any{"path": "latin1.txt"}, wantErr: "binary file"},
		{name: "missing", args: map[string]any{"path": "nope.go"}, wantErr: "file not found: nope.go; use glob"},
		{name: "directory", args: map[string]any{"path": "dir"}, wantErr: "dir is a directory, not a file; it contains: a.go, sub/"},
		{name: "outside", args: map[string]any{"path": "../x"}, wantErr: "escapes the workspace"},
		{name: "misspelled arg", args: map[string]any{"file": "ten.txt"}, wantErr: `unknown argument "file"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runTool(t, NewReadFile(), e.env, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got:\n%q\nwant:\n%q", got, tt.want)
			}
		})
	}
}

func TestReadFileDefaultLimitAndSizeCap(t *testing.T) {
	e := newFileToolEnv(t)
	var b strings.Builder
	for i := 1; i <= 7310; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	e.write(t, "big.txt", b.String())
	got, err := runTool(t, NewReadFile(), e.env, map[string]any{"path": "big.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(got, "  2000\tline 2000\n… 5310 more lines; call read_file with offset 2001 to read further\n") {
		t.Fatalf("default window should end at line 2000 with a note, ends %q", got[len(got)-120:])
	}

	// Lines of 1000 bytes: 256 KiB holds 261 of them.
	wide := strings.Repeat("w", 992)
	b.Reset()
	for i := 0; i < 400; i++ {
		b.WriteString(wide + "\n")
	}
	e.write(t, "wide.txt", b.String())
	got, err = runTool(t, NewReadFile(), e.env, map[string]any{"path": "wide.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > readMaxOutput+200 {
		t.Fatalf("output %d bytes, cap %d", len(got), readMaxOutput)
	}
	shown := strings.Count(got, "\n") - 1
	wantNote := fmt.Sprintf("… %d more lines; call read_file with offset %d to read further\n", 400-shown, shown+1)
	if !strings.HasSuffix(got, wantNote) {
		t.Fatalf("size-capped output should end with %q, ends %q", wantNote, got[len(got)-100:])
	}
}

func TestReadFileDescribe(t *testing.T) {
	e := newFileToolEnv(t)
	e.write(t, "src/a.go", "package a\n")
	a, err := NewReadFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "src/a.go", "offset": 5}), e.env)
	if err != nil {
		t.Fatal(err)
	}
	want := permission.Action{Tool: "read_file", Summary: "read src/a.go from line 5", Scope: "read_file",
		Risk: permission.Low, ReadOnly: true, Path: "src/a.go"}
	if fmt.Sprint(a) != fmt.Sprint(want) {
		t.Fatalf("got %+v\nwant %+v", a, want)
	}
	if _, err := NewReadFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "/etc/passwd"}), e.env); err == nil {
		t.Fatal("Describe accepted a path outside the workspace")
	}
}

func TestReadFileReadsThroughDocuments(t *testing.T) {
	// An editor's unsaved buffer must be what read_file shows.
	e := newFileToolEnv(t)
	p := e.write(t, "a.go", "on disk\n")
	e.env.Docs = overlayDocs{Documents: e.env.Docs, path: p, text: "in the editor\n"}
	got, err := runTool(t, NewReadFile(), e.env, map[string]any{"path": "a.go"})
	if err != nil || got != "     1\tin the editor\n" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "a.go")); err != nil {
		t.Fatal(err)
	}
}
