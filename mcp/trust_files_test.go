package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// writeTree writes files (slash paths relative to root), making their
// directories.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func mcpJSON(t *testing.T, server map[string]any) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"s": server}})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// An "always" covers the workspace files the entry runs, however the
// command line names them: changing one asks again and says which; an
// unchanged one does not ask.
func TestAlwaysBindsTheWorkspaceFilesItRuns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		files  map[string]string
		server func(root string) map[string]any
		swap   string // the file the repository changes after trust
	}{
		{"python script", map[string]string{"tools/server.py": "print(1)"},
			func(string) map[string]any {
				return map[string]any{"command": "python3", "args": []string{"tools/server.py"}}
			}, "tools/server.py"},
		{"node ./file", map[string]string{"srv.js": "1"},
			func(string) map[string]any { return map[string]any{"command": "node", "args": []string{"./srv.js"}} }, "srv.js"},
		{"the command itself", map[string]string{"bin/server": "#!/bin/sh\n"},
			func(string) map[string]any { return map[string]any{"command": "./bin/server"} }, "bin/server"},
		{"sh -c string", map[string]string{"tools/x": "#!/bin/sh\n"},
			func(string) map[string]any {
				return map[string]any{"command": "sh", "args": []string{"-c", "tools/x --serve"}}
			}, "tools/x"},
		{"uv run", map[string]string{"tools/s.py": "1"},
			func(string) map[string]any {
				return map[string]any{"command": "uv", "args": []string{"run", "tools/s.py"}}
			}, "tools/s.py"},
		{"npx ./pkg (a directory)", map[string]string{"pkg/package.json": "{}", "pkg/lib/index.js": "1"},
			func(string) map[string]any { return map[string]any{"command": "npx", "args": []string{"./pkg"}} }, "pkg/lib/index.js"},
		{"python -m", map[string]string{"srv/main.py": "1"},
			func(string) map[string]any {
				return map[string]any{"command": "python3", "args": []string{"-m", "srv.main"}}
			}, "srv/main.py"},
		{"--flag=value", map[string]string{"conf/hook.js": "1"},
			func(string) map[string]any {
				return map[string]any{"command": "node", "args": []string{"--import=./conf/hook.js", "x"}}
			}, "conf/hook.js"},
		{"absolute path", map[string]string{"tools/abs.py": "1"},
			func(root string) map[string]any {
				return map[string]any{"command": "python3", "args": []string{filepath.Join(root, "tools/abs.py")}}
			}, "tools/abs.py"},
		{"through a symlink", map[string]string{"real/impl.py": "1"},
			func(root string) map[string]any {
				if err := os.Symlink("real/impl.py", filepath.Join(root, "server.py")); err != nil {
					panic(err)
				}
				return map[string]any{"command": "python3", "args": []string{"server.py"}}
			}, "real/impl.py"},
		{"node server (server.js)", map[string]string{"server.js": "1"},
			func(string) map[string]any { return map[string]any{"command": "node", "args": []string{"server"}} }, "server.js"},
		{"npx pkg from node_modules", map[string]string{"node_modules/mcp-srv/index.js": "1", "node_modules/.bin/mcp-srv": "1"},
			func(string) map[string]any {
				return map[string]any{"command": "npx", "args": []string{"-y", "mcp-srv@1.0.0"}}
			}, "node_modules/mcp-srv/index.js"},
		{"cwd in the workspace", map[string]string{"sub/run.py": "1"},
			func(string) map[string]any {
				return map[string]any{"command": "python3", "args": []string{"run.py"}, "cwd": "sub"}
			}, "sub/run.py"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root, store := t.TempDir(), NewTrustStore(t.TempDir())
			writeTree(t, root, c.files)
			text := mcpJSON(t, c.server(root))
			e := workspaceEntry(t, root, text)
			if !slices.Contains(e.BoundFiles(), c.swap) {
				t.Fatalf("bound files %v lack %s", e.BoundFiles(), c.swap)
			}
			if !strings.Contains(e.Describe(), c.swap) {
				t.Errorf("the question does not name %s:\n%s", c.swap, e.Describe())
			}
			if err := store.Remember(e, time.Now()); err != nil {
				t.Fatal(err)
			}
			if v, err := store.Check(workspaceEntry(t, root, text)); !v.Trusted || err != nil {
				t.Fatalf("unchanged: %+v %v", v, err)
			}
			writeTree(t, root, map[string]string{c.swap: "import os; os.system('curl evil')"})
			again := workspaceEntry(t, root, text)
			v, err := store.Check(again)
			if v.Trusted || err != nil {
				t.Fatalf("%s swapped: still trusted (%+v, %v)", c.swap, v, err)
			}
			want := c.swap + " changed since you allowed it"
			if !slices.Contains(v.Changes, want) {
				t.Errorf("changes = %q, want %q", v.Changes, want)
			}
			if d := again.WithChanges(v.Changes).Describe(); !strings.Contains(d, want) {
				t.Errorf("the question does not say what changed:\n%s", d)
			}
		})
	}
}

// A file that appears where the entry names one, a symlink retargeted,
// and a file removed each ask again; files outside the workspace are the
// user's and are not bound.
func TestBoundFilesAppearGoAndStayOutside(t *testing.T) {
	t.Parallel()
	root, outside, store := t.TempDir(), t.TempDir(), NewTrustStore(t.TempDir())
	writeTree(t, outside, map[string]string{"lib.py": "1"})
	writeTree(t, root, map[string]string{"a.py": "1", "b.py": "2"})
	if err := os.Symlink(filepath.Join(root, "a.py"), filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	text := mcpJSON(t, map[string]any{"command": "python3",
		"args": []string{"later.py", "gone.py", "link.py", filepath.Join(outside, "lib.py")}})
	writeTree(t, root, map[string]string{"gone.py": "3"})
	e := workspaceEntry(t, root, text)
	if err := store.Remember(e, time.Now()); err != nil {
		t.Fatal(err)
	}
	writeTree(t, outside, map[string]string{"lib.py": "changed"}) // the user's: no question
	if v, _ := store.Check(workspaceEntry(t, root, text)); !v.Trusted {
		t.Fatalf("a file outside the workspace changed and the entry asks again: %q", v.Changes)
	}
	writeTree(t, root, map[string]string{"later.py": "evil"})
	if err := os.Remove(filepath.Join(root, "gone.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "b.py"), filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	v, _ := store.Check(workspaceEntry(t, root, text))
	for _, want := range []string{"later.py appeared since you allowed it", "gone.py is gone since you allowed it", "link.py changed since you allowed it"} {
		if !slices.Contains(v.Changes, want) {
			t.Errorf("changes %q lack %q", v.Changes, want)
		}
	}
	if v.Trusted {
		t.Error("still trusted")
	}
}

// Past the bounds nothing is bound: "always" is refused, the question
// says the entry is asked about at every start.
func TestTooManyFilesAsksEveryTime(t *testing.T) {
	t.Parallel()
	root, store := t.TempDir(), NewTrustStore(t.TempDir())
	files := map[string]string{}
	for i := range maxBoundFiles + 1 {
		files[fmt.Sprintf("pkg/f%03d.js", i)] = "1"
	}
	writeTree(t, root, files)
	e := workspaceEntry(t, root, mcpJSON(t, map[string]any{"command": "node", "args": []string{"pkg"}}))
	if e.FilesUnbound == "" {
		t.Fatalf("%d files bound", len(e.Files))
	}
	if d := e.Describe(); !strings.Contains(d, "asked about at every start") || !strings.Contains(d, fmt.Sprint(maxBoundFiles)) {
		t.Errorf("the question does not say it asks every time:\n%s", d)
	}
	if err := store.Remember(e, time.Now()); err == nil {
		t.Error("an entry whose files could not be bound was remembered")
	}
	if v, _ := store.Check(e); v.Trusted {
		t.Error("trusted")
	}
	big := t.TempDir()
	writeTree(t, big, map[string]string{"huge.py": strings.Repeat("x", maxBoundBytes+1)})
	if e := workspaceEntry(t, big, mcpJSON(t, map[string]any{"command": "python3", "args": []string{"huge.py"}})); !strings.Contains(e.FilesUnbound, "MiB") {
		t.Errorf("a file over %d bytes: unbound = %q", maxBoundBytes, e.FilesUnbound)
	}
}

// A store written before files were bound (records without files) still
// trusts an entry that runs no workspace file, and asks once about one
// that does.
func TestTrustRecordsWithoutFilesStillRead(t *testing.T) {
	t.Parallel()
	root, stateDir := t.TempDir(), t.TempDir()
	writeTree(t, root, map[string]string{"tools/server.py": "1"})
	script := workspaceEntry(t, root, mcpJSON(t, map[string]any{"command": "python3", "args": []string{"tools/server.py"}}))
	plainRoot := t.TempDir()
	plain := workspaceEntry(t, plainRoot, mcpJSON(t, map[string]any{"command": "npx", "args": []string{"-y", "some-server"}}))
	old := map[string]any{"version": 1, "workspaces": map[string]any{
		workspaceKey(root):      map[string]any{"servers": map[string]any{"s": map[string]any{"hash": script.Hash, "target": "x", "decidedAt": time.Now()}}},
		workspaceKey(plainRoot): map[string]any{"servers": map[string]any{"s": map[string]any{"hash": plain.Hash, "target": "x", "decidedAt": time.Now()}}},
	}}
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	store := NewTrustStore(stateDir)
	writeTree(t, filepath.Dir(store.Path()), map[string]string{filepath.Base(store.Path()): string(data)})
	if v, err := store.Check(plain); !v.Trusted || err != nil {
		t.Errorf("an old record of an entry that runs no workspace file: %+v %v", v, err)
	}
	v, err := store.Check(script)
	if v.Trusted || err != nil || len(v.Changes) != 1 || !strings.Contains(v.Changes[0], "did not cover") {
		t.Errorf("an old record of an entry that runs a workspace script: %+v %v", v, err)
	}
}

// The question shows every value that is not a secret, escaped; a secret
// (by name or by value) only by its name; and flags each loader variable
// that points into the workspace.
func TestQuestionShowsEnvironmentValuesAndFlagsLoaders(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"lib/mod.py": "1", "hook.js": "1", "evil.so": "x", "bin/git": "x"})
	env := map[string]string{
		"LOG_LEVEL":         "debug",
		"GREETING":          "hi\x1b]52;c;Y3VybA==\x07\r\u202e\u200bthere",
		"DB_PASSWORD":       "hunter2-plain",
		"SERVICE_URL":       "postgres://u:s3cretpw@db/x",
		"UPSTREAM":          "ghp_" + strings.Repeat("a", 36),
		"PYTHONPATH":        "lib",
		"NODE_OPTIONS":      "--require=./hook.js",
		"LD_PRELOAD":        filepath.Join(root, "evil.so"),
		"PATH":              "./bin:/usr/bin",
		"RUBYOPT":           "-I./lib",
		"PERL5LIB":          "/usr/share/perl5",
		"JAVA_TOOL_OPTIONS": "-Xmx1g",
	}
	d := workspaceEntry(t, root, mcpJSON(t, map[string]any{"command": "python3", "args": []string{"-m", "mod"}, "env": env})).Describe()
	for _, want := range []string{
		"LOG_LEVEL=debug",
		`GREETING=hi\x1b]52;c;Y3VybA==\a\r<U+202E><U+200B>there`,
		"DB_PASSWORD (a secret: value not shown)",
		"SERVICE_URL (a secret: value not shown)",
		"UPSTREAM (a secret: value not shown)",
		"PERL5LIB=/usr/share/perl5",
		"PYTHONPATH points into the workspace: its code runs in the server",
		"NODE_OPTIONS points into the workspace",
		"LD_PRELOAD points into the workspace",
		"PATH points into the workspace",
		"RUBYOPT points into the workspace",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the question lacks %q:\n%s", want, d)
		}
	}
	for _, never := range []string{"hunter2", "s3cretpw", "ghp_", "\x1b", "\r", "\u202e", "\u200b",
		"PERL5LIB points", "JAVA_TOOL_OPTIONS points", "LOG_LEVEL points"} {
		if strings.Contains(d, never) {
			t.Errorf("the question holds %q:\n%s", never, d)
		}
	}
}

// BenchmarkBindFiles measures what loading an entry costs: one script,
// and a package at the bounds (every load of the workspace's .mcp.json
// pays it, before any question).
func BenchmarkBindFiles(b *testing.B) {
	for _, c := range []struct {
		name  string
		files int
		size  int
	}{{"one 64KiB script", 1, 64 << 10}, {"255 files of 64KiB", maxBoundFiles - 1, 64 << 10}} {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			for i := range c.files {
				p := filepath.Join(root, "pkg", fmt.Sprintf("f%03d.js", i))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(strings.Repeat("x", c.size)), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			cfg := ServerConfig{Type: TypeStdio, Command: "node", Args: []string{"pkg"}}
			b.SetBytes(int64(c.files * c.size))
			for b.Loop() {
				if got := bindFiles(cfg, root); got.Unbound != "" || len(got.Files) != c.files {
					b.Fatalf("%+v", got)
				}
			}
		})
	}
}
