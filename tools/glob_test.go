package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGlobPatterns(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{
		"main.go":               "",
		"README.md":             "",
		"src/a.go":              "",
		"src/deep/b.go":         "",
		"src/deep/b_test.go":    "",
		"src/deep/notes.txt":    "",
		"other/c.go":            "",
		".hidden/d.go":          "",
		"src/deep/.env.example": "",
	})
	tests := []struct {
		pattern, path string
		want          []string
	}{
		{pattern: "**/*.go", want: []string{".hidden/d.go", "main.go", "other/c.go", "src/a.go", "src/deep/b.go", "src/deep/b_test.go"}},
		{pattern: "*.go", want: []string{"main.go"}},
		{pattern: "src/**/*.go", want: []string{"src/a.go", "src/deep/b.go", "src/deep/b_test.go"}},
		{pattern: "src/**/*_test.go", want: []string{"src/deep/b_test.go"}},
		{pattern: "**/*.{md,txt}", want: []string{"README.md", "src/deep/notes.txt"}},
		{pattern: "*.go", path: "src/deep", want: []string{"src/deep/b.go", "src/deep/b_test.go"}},
		{pattern: "./src/*.go", want: []string{"src/a.go"}},
		{pattern: "**/.env*", want: []string{"src/deep/.env.example"}},
		{pattern: filepath.ToSlash(filepath.Join(root, "src", "**", "b.go")), want: []string{"src/deep/b.go"}},
	}
	for _, tt := range tests {
		t.Run(tt.pattern+"@"+tt.path, func(t *testing.T) {
			args := map[string]any{"pattern": tt.pattern}
			if tt.path != "" {
				args["path"] = tt.path
			}
			res, err := callTool(t, context.Background(), NewGlob(), env, args)
			if err != nil {
				t.Fatal(err)
			}
			got := sortedLines(res.Output)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("glob %q: got %q, want %q", tt.pattern, got, tt.want)
			}
		})
	}
}

func TestGlobNoMatch(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{"a.go": ""})
	for _, pattern := range []string{"*.rs", "missing/**/*.go"} {
		res, err := callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": pattern})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(res.Output, "no files match "+pattern) {
			t.Errorf("glob %q: output %q", pattern, res.Output)
		}
	}
}

func TestGlobHonoursGitignore(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{
		".gitignore":            "# build output\nbuild/\n*.log\n!keep.log\n/top-only.txt\n",
		".git/config":           "[core]\n",
		".git/HEAD":             "ref: refs/heads/main\n",
		"a.go":                  "",
		"app.log":               "",
		"keep.log":              "",
		"top-only.txt":          "",
		"build/out.go":          "",
		"src/build/gen.go":      "", // build/ (no leading slash) matches at any depth
		"src/top-only.txt":      "", // /top-only.txt is anchored to the root
		"src/.gitignore":        "secret.txt\n!important.log\n",
		"src/secret.txt":        "",
		"src/important.log":     "",
		"src/sub/secret.txt":    "",
		"other/secret.txt":      "", // src/.gitignore does not reach here
		"src/sub/.gitignore":    "*.go\n",
		"src/sub/x.go":          "",
		"src/sub/x.md":          "",
		"src/sub/deeper/y.go":   "",
		"vendor/lib/.gitignore": "!*.log\n", // a deeper file re-includes
		"vendor/lib/debug.log":  "",
	})
	res, err := callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": "**"})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(sortedLines(res.Output), "\n")
	want := strings.Join([]string{
		".gitignore", "a.go", "keep.log", "other/secret.txt", "src/.gitignore", "src/important.log",
		"src/sub/.gitignore", "src/sub/x.md", "src/top-only.txt", "vendor/lib/.gitignore", "vendor/lib/debug.log",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	// Searching inside a subdirectory still applies the root's rules.
	res, err = callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": "**/*", "path": "src"})
	if err != nil {
		t.Fatal(err)
	}
	got = strings.Join(sortedLines(res.Output), "\n")
	want = "src/.gitignore\nsrc/important.log\nsrc/sub/.gitignore\nsrc/sub/x.md\nsrc/top-only.txt"
	if got != want {
		t.Errorf("in src: got\n%s\nwant\n%s", got, want)
	}
}

func TestGlobNewestFirst(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{"old.go": "", "mid.go": "", "new.go": "", "sub/newest.go": ""})
	base := time.Now().Add(-time.Hour)
	for i, name := range []string{"old.go", "mid.go", "new.go", "sub/newest.go"} {
		mt := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(root, name), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	res, err := callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": "**/*.go"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sub/newest.go\nnew.go\nmid.go\nold.go"; res.Output != want {
		t.Errorf("got\n%s\nwant\n%s", res.Output, want)
	}
}

func TestGlobCap(t *testing.T) {
	files := map[string]string{}
	for i := range globMaxResults + 7 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%5, i)] = ""
	}
	env, _ := newSearchEnv(t, files)
	res, err := callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": "**/*.txt"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(res.Output, "\n")
	if len(lines) != globMaxResults+1 {
		t.Fatalf("got %d lines, want %d results and a note", len(lines), globMaxResults)
	}
	if note := lines[len(lines)-1]; note != "[7 more not shown (207 files match); narrow the pattern or path]" {
		t.Errorf("note %q", note)
	}
}

func TestGlobRefusesBadArguments(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{"a.go": "", "dir/b.go": ""})
	outside := t.TempDir()
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"parent path", map[string]any{"pattern": "*", "path": ".."}, "escapes the workspace"},
		{"absolute path outside", map[string]any{"pattern": "*", "path": outside}, "outside the workspace"},
		{"absolute pattern outside", map[string]any{"pattern": outside + "/*"}, "outside the workspace"},
		{"climbing pattern", map[string]any{"pattern": "../*/x"}, `pattern "../*/x": path`},
		{"path is a file", map[string]any{"pattern": "*", "path": "a.go"}, "is a file"},
		{"bad glob", map[string]any{"pattern": "[a-"}, "invalid glob"},
		{"empty pattern", map[string]any{"pattern": ""}, "pattern is empty"},
		{"missing pattern", map[string]any{"path": "dir"}, "missing required argument"},
		{"unknown argument", map[string]any{"pattern": "*", "recursive": true}, "recursive"},
		{"absolute pattern and path", map[string]any{"pattern": root + "/*.go", "path": "dir"}, "is absolute"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := callTool(t, context.Background(), NewGlob(), env, tt.args)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestGlobSkipsSymlinks(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{"real/a.go": ""})
	outside := t.TempDir()
	writeSearchFiles(t, outside, map[string]string{"leak.go": ""})
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	res, err := callTool(t, context.Background(), NewGlob(), env, map[string]any{"pattern": "**/*.go"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "real/a.go" {
		t.Errorf("got %q, want only real/a.go (symlinks are not followed)", res.Output)
	}
}

func TestGlobDescribeIsReadOnly(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{"src/a.go": ""})
	a, err := NewGlob().Describe(t.Context(), []byte(`{"pattern":"**/*.go","path":"src"}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if !a.ReadOnly || a.Tool != "glob" || a.Path != "src" || a.Summary != "glob **/*.go in src" {
		t.Errorf("action %+v", a)
	}
}

// sortedLines splits output into lines, sorted, for order-free comparison.
func sortedLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	sortStrings(lines)
	return lines
}
