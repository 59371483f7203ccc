package sandbox

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Protected workspace files (permission.ProtectedFiles: editor tasks and
// settings, direnv, exrc, git hook managers, .mcp.json, ...) run later,
// outside the sandbox, when an editor opens the folder, a shell enters
// it or git commits. A command may not change them nor create them:
// in each writable dir and each checkout the git guard finds in it
// (nested repositories, submodules), an existing one is protected as
// git metadata is (a read-only mount, or left out of the Landlock grants
// without namespaces), and a missing one is watched by the tripwire,
// from its first missing directory down: where .vscode does not exist,
// .vscode itself must not appear. Deeper directories are not searched
// (that would walk the workspace for every command); the file tools ask
// about those as HIGH wherever they are.

// workspaceFiles protects the list's entries in dir. The dir is listed
// once: an entry whose first part is not there is protected from being
// created without a look at the disk (this runs for every command).
func (w *gitWalk) workspaceFiles(dir string) {
	if !w.writableAt(dir) {
		return
	}
	listing, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	top := make(map[string]os.FileMode, len(listing))
	for _, e := range listing {
		top[e.Name()] = e.Type()
	}
	for _, name := range w.files {
		first, rest, nested := strings.Cut(name, "/")
		switch mode, ok := top[first]; {
		case permission.IsPattern(name) && !nested:
			// *.code-workspace: those that exist are protected, and no
			// new one may appear.
			w.guard.patterns = append(w.guard.patterns, filepath.Join(dir, name))
			for n, mode := range top {
				if ok, _ := path.Match(name, n); ok {
					w.protectFile(filepath.Join(dir, n), mode)
				}
			}
		case !ok:
			w.protectMissing(filepath.Join(dir, first)) // must not appear
		case !nested:
			w.protectFile(filepath.Join(dir, first), mode)
		case mode&os.ModeSymlink != 0:
			w.protectFile(filepath.Join(dir, first), mode) // watched: keeps pointing where it does
		case permission.IsPattern(rest):
			parent := filepath.Join(dir, first, filepath.FromSlash(path.Dir(rest)))
			if missing := missingDir(filepath.Join(dir, first), path.Dir(rest)); missing != "" {
				w.protectFile(missing, 0) // missing, or a symlink (Lstat'd again)
				continue
			}
			w.guard.patterns = append(w.guard.patterns, filepath.Join(parent, path.Base(rest)))
			entries, _ := os.ReadDir(parent)
			for _, e := range entries {
				if ok, _ := path.Match(path.Base(rest), e.Name()); ok {
					w.protectFile(filepath.Join(parent, e.Name()), e.Type())
				}
			}
		default:
			p := firstMissing(dir, name)
			fi, err := os.Lstat(p)
			var mode os.FileMode
			if err == nil {
				mode = fi.Mode().Type()
			}
			w.protectFile(p, mode)
		}
	}
}

// protectMissing protects a workspace file the listing showed missing:
// watched so that it does not appear (gitMounts needs no second look).
func (w *gitWalk) protectMissing(p string) {
	w.protectFile(p, 0)
	if w.guard.absent == nil {
		w.guard.absent = map[string]bool{}
	}
	w.guard.absent[p] = true
}

// protectFile protects one workspace file (or the directory that must
// not appear), and where a symlink leads, the link and its target; mode
// is its type as listed (0 for a missing one).
func (w *gitWalk) protectFile(p string, mode os.FileMode) {
	paths := []string{p}
	if mode&os.ModeSymlink != 0 {
		paths = append(paths, resolve(p))
	}
	for _, q := range paths {
		if w.writableAt(q) {
			w.guard.readOnly = append(w.guard.readOnly, q)
			w.guard.files = append(w.guard.files, q)
		}
	}
}

// firstMissing is dir/name when every directory on the way exists, else
// the first that does not: what a command would have to create first.
func firstMissing(dir, name string) string {
	if missing := missingDir(dir, path.Dir(name)); missing != "" {
		return missing
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}

// missingDir is the first directory of rel (a slash path below dir, "."
// for dir itself) that does not exist, "" when all do. One that is a
// symlink is returned too: it is watched, so that it keeps pointing where
// it does.
func missingDir(dir, rel string) string {
	if rel == "." {
		return ""
	}
	p := dir
	for _, part := range strings.Split(rel, "/") {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&os.ModeSymlink != 0 {
			return p
		}
	}
	return ""
}

// protectedFileAt reports whether p is a protected workspace file or
// lies in one, and is not git metadata too (which says more: a hooks dir).
func (g gitGuard) protectedFileAt(p string) bool {
	for _, f := range g.git {
		if within(f, p) {
			return false
		}
	}
	for _, f := range g.files {
		if within(f, p) {
			return true
		}
	}
	for _, pat := range g.patterns {
		if ok, _ := filepath.Match(pat, p); ok {
			return true
		}
	}
	return false
}
