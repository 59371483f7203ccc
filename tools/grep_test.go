package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func grepCall(t *testing.T, env *Env, args map[string]any) string {
	t.Helper()
	res, err := callTool(t, context.Background(), NewGrep(), env, args)
	if err != nil {
		t.Fatalf("grep %v: %v", args, err)
	}
	if res.IsError {
		t.Fatalf("grep %v: IsError: %s", args, res.Output)
	}
	return res.Output
}

func TestGrepRegexOutput(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{
		"main.go":       "package main\n\nfunc main() {\n\trun()\n}\n\nfunc run() {}\n",
		"lib/util.go":   "package lib\n\nfunc Helper(x int) int { return x }\n",
		"lib/notes.txt": "func in prose\n",
		"crlf.go":       "package crlf\r\nfunc Windows() {}\r\n",
	})
	got := grepCall(t, env, map[string]any{"pattern": `^func \w+\(`})
	want := "crlf.go:2: func Windows() {}\n" +
		"lib/util.go:3: func Helper(x int) int { return x }\n" +
		"main.go:3: func main() {\n" +
		"main.go:7: func run() {}"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGrepOptions(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{
		"a.go":          "Deadline\ndeadline\nDEADLINE\nnothing\n",
		"b.txt":         "deadline in text\n",
		"src/c.go":      "ctx deadline\n",
		"src/deep/d.go": "deadline deep\n",
		"src/deep/e.ts": "deadline ts\n",
	})
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"case sensitive", map[string]any{"pattern": "deadline", "glob": "*.go"},
			"a.go:2: deadline\nsrc/c.go:1: ctx deadline\nsrc/deep/d.go:1: deadline deep"},
		{"ignore_case", map[string]any{"pattern": "deadline", "ignore_case": true, "path": "a.go"},
			"a.go:1: Deadline\na.go:2: deadline\na.go:3: DEADLINE"},
		{"glob by name at any depth", map[string]any{"pattern": "deadline", "glob": "*.ts"},
			"src/deep/e.ts:1: deadline ts"},
		{"glob by path", map[string]any{"pattern": "deadline", "glob": "deep/*.go", "path": "src"},
			"src/deep/d.go:1: deadline deep"},
		{"glob braces", map[string]any{"pattern": "deadline", "glob": "*.{txt,ts}"},
			"b.txt:1: deadline in text\nsrc/deep/e.ts:1: deadline ts"},
		{"path is a directory", map[string]any{"pattern": "deadline", "path": "src/deep"},
			"src/deep/d.go:1: deadline deep\nsrc/deep/e.ts:1: deadline ts"},
		{"no match", map[string]any{"pattern": "absent"},
			`no matches for "absent" in . (5 files searched)`},
		{"no match with glob", map[string]any{"pattern": "deadline", "glob": "*.rs"},
			`no matches for "deadline" in . (glob *.rs) (0 files searched)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := grepCall(t, env, tt.args); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestGrepContext(t *testing.T) {
	var lines []string
	for i := 1; i <= 20; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	lines[2], lines[4], lines[15] = "hit A", "hit B", "hit C" // lines 3, 5, 16
	env, _ := newSearchEnv(t, map[string]string{
		"f.txt": strings.Join(lines, "\n") + "\n",
		"g.txt": "hit D\nlast\n",
	})
	got := grepCall(t, env, map[string]any{"pattern": "^hit", "context": 2})
	want := strings.Join([]string{
		"f.txt-1- line 1",
		"f.txt-2- line 2",
		"f.txt:3: hit A",
		"f.txt-4- line 4",
		"f.txt:5: hit B",
		"f.txt-6- line 6",
		"f.txt-7- line 7",
		"--",
		"f.txt-14- line 14",
		"f.txt-15- line 15",
		"f.txt:16: hit C",
		"f.txt-17- line 17",
		"f.txt-18- line 18",
		"--",
		"g.txt:1: hit D",
		"g.txt-2- last",
	}, "\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGrepSkipsBinaryAndIgnored(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{
		"text.go":         "needle\n",
		"blob.bin":        "needle\x00\x01\x02needle\n",
		".gitignore":      "gen/\n*.log\n",
		"gen/out.go":      "needle\n",
		"debug.log":       "needle\n",
		"sub/.gitignore":  "private.go\n",
		"sub/private.go":  "needle\n",
		"sub/public.go":   "needle\n",
		".git/COMMIT_MSG": "needle\n",
		".config/x.toml":  "needle = 1\n", // hidden but not ignored: searched
	})
	got := grepCall(t, env, map[string]any{"pattern": "needle"})
	want := ".config/x.toml:1: needle = 1\nsub/public.go:1: needle\ntext.go:1: needle"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Named explicitly, an ignored file is searched (as grep and rg do).
	if got := grepCall(t, env, map[string]any{"pattern": "needle", "path": "debug.log"}); got != "debug.log:1: needle" {
		t.Errorf("explicit ignored file: %q", got)
	}
}

func TestGrepCap(t *testing.T) {
	files := map[string]string{}
	// 3 files × 100 matching lines, interleaved with non-matching ones.
	for f := range 3 {
		var b strings.Builder
		for i := range 100 {
			fmt.Fprintf(&b, "match %d\nother\n", i)
		}
		files[fmt.Sprintf("f%d.txt", f)] = b.String()
	}
	env, _ := newSearchEnv(t, files)
	got := grepCall(t, env, map[string]any{"pattern": "match"})
	lines := strings.Split(got, "\n")
	if len(lines) != grepMaxMatches+1 {
		t.Fatalf("got %d lines, want %d matches and a note", len(lines), grepMaxMatches)
	}
	// Sorted by path: all of f0 and f1, nothing of f2.
	if lines[0] != "f0.txt:1: match 0" || lines[199] != "f1.txt:199: match 99" {
		t.Errorf("first %q, last shown %q", lines[0], lines[199])
	}
	if want := "[100 more matches not shown; 300 matching lines in 3 files in all. Narrow the pattern, path or glob.]"; lines[200] != want {
		t.Errorf("note %q", lines[200])
	}
}

func TestGrepCapKeepsFirstFilesByPath(t *testing.T) {
	// Many files with matches: the collector drops files while the walk
	// runs and must still show the ones that sort first.
	files := map[string]string{}
	for i := range 150 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = "x\nx\nx\n"
	}
	env, _ := newSearchEnv(t, files)
	got := grepCall(t, env, map[string]any{"pattern": "x"})
	lines := strings.Split(got, "\n")
	if lines[0] != "d0/f000.txt:1: x" || !strings.HasPrefix(lines[len(lines)-1], "[250 more matches not shown; 450 matching lines in 150 files") {
		t.Errorf("first %q, note %q", lines[0], lines[len(lines)-1])
	}
	// Every shown line is from a file that sorts before every hidden one:
	// d0 has 22 files × 3 lines = 66 lines, d1 and d2 too (198), then d3.
	if last := lines[len(lines)-2]; last != "d3/f003.txt:2: x" {
		t.Errorf("last shown %q", last)
	}
}

func TestGrepLongLineCut(t *testing.T) {
	long := strings.Repeat("a", 5000) + "NEEDLE" + strings.Repeat("b", 5000)
	env, _ := newSearchEnv(t, map[string]string{"min.js": long + "\n"})
	got := grepCall(t, env, map[string]any{"pattern": "NEEDLE"})
	if len(got) > grepMaxLineBytes+100 || !strings.Contains(got, "NEEDLE") || !strings.Contains(got, "bytes cut]") {
		t.Errorf("cut line (%d bytes): %q", len(got), got)
	}
	if !strings.HasPrefix(got, "min.js:1: [") {
		t.Errorf("prefix %q", got[:30])
	}
}

func TestGrepErrors(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{"a.go": "x\n"})
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"pattern": "(unclosed"}, "invalid regular expression"},
		{map[string]any{"pattern": `(?!x)`}, "RE2"},
		{map[string]any{"pattern": ""}, "pattern is empty"},
		{map[string]any{"pattern": "x", "path": "../"}, "escapes the workspace"},
		{map[string]any{"pattern": "x", "path": "/etc"}, "outside the workspace"},
		{map[string]any{"pattern": "x", "path": "missing"}, "no such file"},
		{map[string]any{"pattern": "x", "glob": "[oops"}, "invalid glob"},
		{map[string]any{"pattern": "x", "context": 99}, "context must be between 0 and 10"},
		{map[string]any{"pattern": "x", "case_insensitive": true}, "case_insensitive"},
		{map[string]any{"pattern": 7}, "pattern"},
	}
	for _, tt := range tests {
		_, err := callTool(t, context.Background(), NewGrep(), env, tt.args)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want it to mention %q", tt.args, err, tt.want)
		}
	}
}

func TestGrepCancelled(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{"a.go": "x\n", "b/c.go": "x\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := callTool(t, ctx, NewGrep(), env, map[string]any{"pattern": "x"})
	if err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("error %v", err)
	}
}

func TestSearchCountsAll(t *testing.T) {
	dir := t.TempDir()
	writeSearchFiles(t, dir, map[string]string{
		"a.txt":      strings.Repeat("hit\nmiss\n", 500),
		"b/c.txt":    "hit hit hit\n",
		"b/bin.dat":  "hit\x00",
		".gitignore": "skip/\n",
		"skip/d.txt": "hit\n",
	})
	st, err := Search(context.Background(), dir, SearchOptions{Pattern: "hit"})
	if err != nil {
		t.Fatal(err)
	}
	want := SearchStats{FilesSearched: 3, BinarySkipped: 1, MatchedFiles: 2, MatchedLines: 501}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
	st, err = Search(context.Background(), filepath.Join(dir, "b"), SearchOptions{Pattern: "HIT", IgnoreCase: true, Glob: "*.txt", Workers: 1})
	if err != nil || st.MatchedLines != 1 || st.FilesSearched != 1 {
		t.Errorf("stats %+v, err %v", st, err)
	}
	st, err = Search(context.Background(), filepath.Join(dir, "a.txt"), SearchOptions{Pattern: "hit"})
	if err != nil || st.MatchedLines != 500 || st.FilesSearched != 1 {
		t.Errorf("a file: stats %+v, err %v", st, err)
	}
	if _, err := Search(context.Background(), dir, SearchOptions{Pattern: "("}); err == nil {
		t.Error("bad pattern: no error")
	}
	if _, err := Search(context.Background(), filepath.Join(dir, "nope"), SearchOptions{Pattern: "x"}); !os.IsNotExist(err) {
		t.Errorf("missing dir: %v", err)
	}
}

func TestGrepDescribeIsReadOnly(t *testing.T) {
	env, _ := newSearchEnv(t, map[string]string{"src/a.go": ""})
	a, err := NewGrep().Describe(t.Context(), []byte(`{"pattern":"TODO","path":"src"}`), env)
	if err != nil {
		t.Fatal(err)
	}
	if !a.ReadOnly || a.Tool != "grep" || a.Path != "src" || a.Summary != `grep "TODO" in src` {
		t.Errorf("action %+v", a)
	}
}
