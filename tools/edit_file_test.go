package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func TestReplaceText(t *testing.T) {
	// Lines 4, 9 and 17 hold "target".
	lines := make([]string, 20)
	for i := range lines {
		lines[i] = "filler"
	}
	lines[3], lines[8], lines[16] = "target", "target", "target"
	three := strings.Join(lines, "\n") + "\n"

	tests := []struct {
		name     string
		text     string
		old, new string
		all      bool
		want     string
		wantErr  string
		wantAt   []int
	}{
		{name: "single", text: "a\nb\nc\n", old: "b", new: "B", want: "a\nB\nc\n", wantAt: []int{2}},
		{name: "multi-line", text: "func f() {\n\treturn 1\n}\n", old: "\treturn 1\n}", new: "\treturn 2\n}", want: "func f() {\n\treturn 2\n}\n", wantAt: []int{2}},
		{name: "ambiguous", text: three, old: "target", new: "x",
			wantErr: "found 3 matches of old_string at lines 4, 9, 17; add more context or set replace_all"},
		{name: "replace all", text: three, old: "target", new: "x", all: true,
			want: strings.ReplaceAll(three, "target", "x"), wantAt: []int{4, 9, 17}},
		{name: "not found", text: "a\nb\n", old: "zzz", new: "y", wantErr: "old_string not found; read the file again"},
		{name: "indentation mismatch hint", text: "if x {\n\t\tcall()\n}\n", old: "    call()\n}", new: "y",
			wantErr: "its first line appears at line(s) 2, so check indentation"},
		{name: "line-number prefix hint", text: "alpha\nbeta\n", old: "     1\talpha\n     2\tbeta", new: "x",
			wantErr: "line-number prefixes"},
		{name: "crlf matched with lf and kept", text: "one\r\ntwo\r\nthree\r\n", old: "one\ntwo\n", new: "1\n2\n2.5\n",
			want: "1\r\n2\r\n2.5\r\nthree\r\n", wantAt: []int{1}},
		{name: "crlf given crlf", text: "one\r\ntwo\r\n", old: "one\r\ntwo", new: "x\r\ny", want: "x\r\ny\r\n", wantAt: []int{1}},
		{name: "final newline kept when old eats it", text: "a\nlast\n", old: "last\n", new: "end", want: "a\nend\n", wantAt: []int{2}},
		{name: "no final newline kept", text: "a\nlast", old: "last", new: "end\n", want: "a\nend", wantAt: []int{2}},
		{name: "deleting everything", text: "only\n", old: "only\n", new: "", want: "", wantAt: []int{1}},
		{name: "change only in final newline", text: "a\n", old: "a\n", new: "a", wantErr: "the edit changes nothing"},
		{name: "mixed endings matched as is", text: "a\r\nb\nc\n", old: "b\nc", new: "B\nC", want: "a\r\nB\nC\n", wantAt: []int{2}},
		{name: "unicode", text: "héllo wörld\n", old: "wörld", new: "世界", want: "héllo 世界\n", wantAt: []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, at, err := replaceText(tt.text, tt.old, tt.new, tt.all)
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
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			if fmt.Sprint(at) != fmt.Sprint(tt.wantAt) {
				t.Fatalf("lines %v, want %v", at, tt.wantAt)
			}
		})
	}
}

func TestEditFileRun(t *testing.T) {
	e := newFileToolEnv(t)
	e.write(t, "main.go", "package main\n\nfunc main() {\n\tprintln(1)\n\tprintln(1)\n}\n")
	e.write(t, "win.txt", "a\r\nb\r\n")
	e.write(t, "empty.txt", "")
	e.write(t, "bin.dat", "\x00\x01\x02abc")
	tests := []struct {
		name     string
		args     map[string]any
		want     string
		wantErr  string
		file     string
		fileText string
	}{
		{name: "ambiguous", args: map[string]any{"path": "main.go", "old_string": "println(1)", "new_string": "println(2)"},
			wantErr: "main.go: found 2 matches of old_string at lines 4, 5; add more context or set replace_all"},
		{name: "replace all", args: map[string]any{"path": "main.go", "old_string": "println(1)", "new_string": "println(2)", "replace_all": true},
			want: "edited main.go: replaced 2 occurrences at lines 4, 5", file: "main.go",
			fileText: "package main\n\nfunc main() {\n\tprintln(2)\n\tprintln(2)\n}\n"},
		{name: "single", args: map[string]any{"path": "main.go", "old_string": "func main() {\n\tprintln(2)\n", "new_string": "func main() {\n"},
			want: "edited main.go: replaced 1 occurrence at line 3", file: "main.go",
			fileText: "package main\n\nfunc main() {\n\tprintln(2)\n}\n"},
		{name: "crlf preserved", args: map[string]any{"path": "win.txt", "old_string": "a\nb", "new_string": "x\ny\nz"},
			want: "edited win.txt: replaced 1 occurrence at line 1", file: "win.txt", fileText: "x\r\ny\r\nz\r\n"},
		{name: "identical strings", args: map[string]any{"path": "main.go", "old_string": "x", "new_string": "x"},
			wantErr: "old_string and new_string are identical"},
		{name: "empty old creates", args: map[string]any{"path": "pkg/new.go", "old_string": "", "new_string": "package pkg\n"},
			want: "created pkg/new.go (1 lines)", file: "pkg/new.go", fileText: "package pkg\n"},
		{name: "empty old fills empty file", args: map[string]any{"path": "empty.txt", "old_string": "", "new_string": "now\n"},
			want: "created empty.txt (1 lines)", file: "empty.txt", fileText: "now\n"},
		{name: "empty old on non-empty file", args: map[string]any{"path": "main.go", "old_string": "", "new_string": "x"},
			wantErr: "old_string is empty but main.go is not"},
		{name: "missing file", args: map[string]any{"path": "nope.go", "old_string": "a", "new_string": "b"},
			wantErr: "file not found: nope.go"},
		{name: "binary file", args: map[string]any{"path": "bin.dat", "old_string": "abc", "new_string": "d"},
			wantErr: "bin.dat is a binary file"},
		{name: "git refused", args: map[string]any{"path": ".git/config", "old_string": "", "new_string": "x"},
			wantErr: "inside .git"},
		{name: "new_string required", args: map[string]any{"path": "main.go", "old_string": "a"},
			wantErr: `missing required argument "new_string"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runTool(t, NewEditFile(), e.env, tt.args)
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
				t.Fatalf("output %q, want %q", got, tt.want)
			}
			if text := e.read(t, tt.file); text != tt.fileText {
				t.Fatalf("file holds %q, want %q", text, tt.fileText)
			}
		})
	}
}

func TestEditFileDescribe(t *testing.T) {
	e := newFileToolEnv(t)
	original := "package a\n\nconst X = 1\n"
	e.write(t, "a/rel.go", original)

	a, err := NewEditFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "a/rel.go", "old_string": "X = 1", "new_string": "X = 2"}), e.env)
	if err != nil {
		t.Fatal(err)
	}
	wantDiff := "--- a/a/rel.go\n+++ b/a/rel.go\n@@ -1,3 +1,3 @@\n package a\n \n-const X = 1\n+const X = 2\n"
	if a.Tool != "edit_file" || a.Scope != "edit_file" || a.Summary != "edit a/rel.go" || a.Path != "a/rel.go" ||
		a.Risk != permission.Medium || a.ReadOnly || a.Diff != wantDiff {
		t.Fatalf("action %+v\ndiff:\n%s", a, a.Diff)
	}
	if e.read(t, "a/rel.go") != original {
		t.Fatal("Describe changed the file")
	}

	// A no-op edit fails in Describe: nobody is asked to approve it.
	_, err = NewEditFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "a/rel.go", "old_string": "Y = 1", "new_string": "Y = 2"}), e.env)
	if err == nil || !strings.Contains(err.Error(), "old_string not found") {
		t.Fatalf("Describe of a non-matching edit: %v", err)
	}

	a, err = NewEditFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": ".env.local", "old_string": "", "new_string": "K=v\n"}), e.env)
	if err != nil || a.Risk != permission.High || a.Summary != "edit .env.local (new file, 1 lines)" {
		t.Fatalf("new .env.local: %+v, %v", a, err)
	}
	if _, err := os.Stat(filepath.Join(e.root, ".env.local")); err == nil {
		t.Fatal("Describe created the file")
	}
}

func TestEditFileUsesDocumentsText(t *testing.T) {
	// The edit is computed against the editor's buffer, not the disk, and
	// lands through Documents.Apply with that buffer as Before.
	e := newFileToolEnv(t)
	p := e.write(t, "a.go", "disk text\n")
	rec := &recordingDocs{overlayDocs: overlayDocs{Documents: e.env.Docs, path: p, text: "buffer text\n"}}
	e.env.Docs = rec
	a, err := NewEditFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": "a.go", "old_string": "buffer", "new_string": "edited"}), e.env)
	if err != nil || !strings.Contains(a.Diff, "-buffer text\n+edited text\n") {
		t.Fatalf("Describe: %v, diff %q", err, a.Diff)
	}
	if _, err := runTool(t, NewEditFile(), e.env, map[string]any{"path": "a.go", "old_string": "buffer", "new_string": "edited"}); err != nil {
		t.Fatal(err)
	}
	if len(rec.applied) != 1 {
		t.Fatalf("%d applies", len(rec.applied))
	}
	got := rec.applied[0]
	if got.Tool != "edit_file" || got.Before.Text != "buffer text\n" || got.Before.Version == nil || got.After != "edited text\n" {
		t.Fatalf("applied %+v", got)
	}
	if e.read(t, "a.go") != "disk text\n" {
		t.Fatal("the disk was written behind the editor's back")
	}
}

type recordingDocs struct {
	overlayDocs
	applied []FileEdit
}

func (r *recordingDocs) Apply(_ context.Context, edit FileEdit) error {
	r.applied = append(r.applied, edit)
	return nil
}
