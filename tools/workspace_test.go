package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileLayout builds, under a temp dir:
//
//	root/inside.txt, root/sub/, root/.git/config, root/nested/.git/HEAD
//	root/linkdir -> outside/           (escaping dir link)
//	root/linkfile -> outside/secret.txt (escaping file link)
//	root/dangling -> outside/new.txt    (escaping, target missing)
//	root/sub/up -> ../..                (relative escape)
//	root/inlink -> inside.txt           (harmless link)
//	root/gitlink -> .git                (a way into .git)
//	root/loop -> loop
//	root2/file2.txt                     (second root)
//	outside/secret.txt
func hostileLayout(t testing.TB, dir string) (root, root2, outside string) {
	t.Helper()
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) {
		mk(filepath.Dir(p))
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	root, root2, outside = filepath.Join(dir, "root"), filepath.Join(dir, "root2"), filepath.Join(dir, "outside")
	file(filepath.Join(root, "inside.txt"))
	mk(filepath.Join(root, "sub"))
	file(filepath.Join(root, ".git", "config"))
	file(filepath.Join(root, "nested", ".git", "HEAD"))
	file(filepath.Join(root2, "file2.txt"))
	file(filepath.Join(outside, "secret.txt"))
	link(outside, filepath.Join(root, "linkdir"))
	link(filepath.Join(outside, "secret.txt"), filepath.Join(root, "linkfile"))
	link(filepath.Join(outside, "new.txt"), filepath.Join(root, "dangling"))
	link("../..", filepath.Join(root, "sub", "up"))
	link("inside.txt", filepath.Join(root, "inlink"))
	link(".git", filepath.Join(root, "gitlink"))
	link("loop", filepath.Join(root, "loop"))
	return root, root2, outside
}

func TestResolveHostilePaths(t *testing.T) {
	root, root2, outside := hostileLayout(t, t.TempDir())
	ws, err := NewWorkspace(root, root2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		write   bool
		want    string // resolved path when accepted
		wantErr string // substring of the error when refused
	}{
		{name: "plain relative", path: "inside.txt", want: filepath.Join(root, "inside.txt")},
		{name: "root itself", path: ".", want: root},
		{name: "absolute inside", path: filepath.Join(root, "inside.txt"), want: filepath.Join(root, "inside.txt")},
		{name: "dotdot that stays inside", path: "sub/../inside.txt", want: filepath.Join(root, "inside.txt")},
		{name: "dotdot escape", path: "../outside/secret.txt", wantErr: "escapes the workspace root"},
		{name: "deep dotdot escape", path: "sub/../../outside", wantErr: "escapes the workspace root"},
		{name: "many dotdots", path: strings.Repeat("../", 30) + "etc/passwd", wantErr: "escapes"},
		{name: "etc passwd", path: "/etc/passwd", wantErr: "outside the workspace"},
		{name: "absolute outside sibling", path: filepath.Join(outside, "secret.txt"), wantErr: "outside the workspace"},
		{name: "prefix-sharing sibling", path: root + "-evil/x", wantErr: "outside the workspace"},
		{name: "symlinked dir to outside", path: "linkdir/secret.txt", wantErr: "symlink"},
		{name: "the escaping dir link itself", path: "linkdir", wantErr: "symlink"},
		{name: "symlinked file to outside", path: "linkfile", wantErr: "symlink"},
		{name: "symlinked file write", path: "linkfile", write: true, wantErr: "symlink"},
		{name: "dangling link to outside for a new file", path: "dangling", write: true, wantErr: "symlink"},
		{name: "new nested dirs under escaping link", path: "linkdir/new/deeper/file.txt", write: true, wantErr: "symlink"},
		{name: "relative link climbing out", path: "sub/up/outside/secret.txt", wantErr: "symlink"},
		{name: "harmless link resolves to its target", path: "inlink", want: filepath.Join(root, "inside.txt")},
		{name: "symlink loop", path: "loop", wantErr: "too many levels"},
		{name: "new file in new dirs", path: "a/b/c/new.go", write: true, want: filepath.Join(root, "a/b/c/new.go")},
		{name: "git config read allowed", path: ".git/config", want: filepath.Join(root, ".git/config")},
		{name: "git config write refused", path: ".git/config", write: true, wantErr: "inside .git"},
		{name: "git dir write refused", path: ".git", write: true, wantErr: "inside .git"},
		{name: "git upper case write refused", path: ".GIT/hooks/pre-commit", write: true, wantErr: "inside .git"},
		{name: "new hook write refused", path: ".git/hooks/pre-commit", write: true, wantErr: "inside .git"},
		{name: "nested repo git write refused", path: "nested/.git/HEAD", write: true, wantErr: "inside .git"},
		{name: "link into git write refused", path: "gitlink/config", write: true, wantErr: "inside .git"},
		{name: "gitignore is not git", path: ".gitignore", write: true, want: filepath.Join(root, ".gitignore")},
		{name: "dir ending in .git is not git", path: "x.git/y", write: true, want: filepath.Join(root, "x.git/y")},
		{name: "unicode", path: "ünïcødé/日本語.txt", write: true, want: filepath.Join(root, "ünïcødé/日本語.txt")},
		{name: "tilde is literal", path: "~/x", want: filepath.Join(root, "~/x")},
		{name: "NUL byte", path: "inside.txt\x00../../etc/passwd", wantErr: "NUL"},
		{name: "empty", path: "", wantErr: "empty path"},
		{name: "very long path", path: strings.Repeat("a/", 3000), wantErr: "too long"},
		{name: "overlong component", path: strings.Repeat("a", 300) + "/x", wantErr: "too long"},
		{name: "second root absolute", path: filepath.Join(root2, "file2.txt"), want: filepath.Join(root2, "file2.txt")},
		// Lexically inside another root: inside the workspace, so allowed.
		{name: "second root via dotdot from first", path: "../root2/file2.txt", want: filepath.Join(root2, "file2.txt")},
		{name: "dotdot past second root", path: "../root2/../outside/secret.txt", wantErr: "escapes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resolve := ws.Resolve
			if tt.write {
				resolve = ws.ResolveWrite
			}
			got, err := resolve(tt.path)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("accepted %q as %q, want error containing %q", tt.path, got, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %q does not contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused %q: %v", tt.path, err)
			}
			if got != tt.want {
				t.Fatalf("resolved %q to %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestResolveLinkBetweenRootsIsAllowed(t *testing.T) {
	root, root2, _ := hostileLayout(t, t.TempDir())
	if err := os.Symlink(root2, filepath.Join(root, "to2")); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(root, root2)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ws.Resolve("to2/file2.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root2, "file2.txt"); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// The same link is an escape when root2 is not a root.
	single, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := single.Resolve("to2/file2.txt"); err == nil {
		t.Fatal("a link to a directory that is not a root was accepted")
	}
}

func TestRelAndContains(t *testing.T) {
	root, root2, outside := hostileLayout(t, t.TempDir())
	nested := filepath.Join(root, "sub")
	ws, err := NewWorkspace(root, root2, nested)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		abs      string
		rel      string
		contains bool
	}{
		{root, ".", true},
		{filepath.Join(root, "a", "b.go"), "a/b.go", true},
		{filepath.Join(root2, "file2.txt"), "file2.txt", true},
		{filepath.Join(nested, "x.go"), "x.go", true}, // the innermost root wins
		{filepath.Join(outside, "secret.txt"), filepath.Join(outside, "secret.txt"), false},
		{root + "-evil", root + "-evil", false},
		{"/", "/", false},
	}
	for _, tt := range tests {
		if got := ws.Rel(tt.abs); got != tt.rel {
			t.Errorf("Rel(%q) = %q, want %q", tt.abs, got, tt.rel)
		}
		if got := ws.Contains(tt.abs); got != tt.contains {
			t.Errorf("Contains(%q) = %v, want %v", tt.abs, got, tt.contains)
		}
	}
}

func TestNewWorkspaceErrors(t *testing.T) {
	if _, err := NewWorkspace(); err == nil {
		t.Error("no roots accepted")
	}
	if _, err := NewWorkspace(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("missing root accepted")
	}
}
