package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/agent-lsp/agent-lsp/permission"
)

// Workspace is the sandbox every path argument goes through: the roots the
// agent may touch.
//
// Paths are resolved in two steps. First lexically: a relative path is joined
// to the first root and cleaned, so `..` that climbs out of the root is
// refused before the disk is looked at. Then physically: every existing
// component is followed through symlinks (the file itself, every directory
// above it, and, for a file that does not exist yet, its deepest existing
// ancestor or a dangling link's target), and the result must still lie inside
// a root. The returned path is that fully resolved one: the file's real name,
// with a good error message when it is refused.
//
// That check is by name, and a name can be swapped for a symlink the moment
// after, so Resolve's result is only a display path: the LSP layer keys
// buffers by it and the model reads it. The disk is never opened by it.
// Every read, write, stat and directory walk goes through an os.Root opened
// on the root that holds the path (workspace_io.go), with the path relative
// to it: the walk is done one component at a time below the root's handle
// and refuses to leave it, whatever was swapped in meanwhile.
//
// Reads inside `.git` are allowed (HEAD, config and logs are useful context);
// writes there are refused by ResolveWrite because they can corrupt the
// repository or plant hooks that run outside the sandbox.
//
// A Workspace holds one open directory handle per root until Close; one
// that is dropped without Close has its handles closed by the garbage
// collector (os.Root's finalizer). A root directory replaced while the
// workspace is open (deleted and cloned again) is reopened by its name on
// the next operation, so nothing is written into the deleted one.
type Workspace struct {
	roots []string // absolute, symlinks resolved, first is the default

	mu      sync.Mutex
	handles []*os.Root // handles[i] is opened on roots[i]
	closed  bool
	// protected are the files writing which is HIGH (protected_files.go).
	protected permission.ProtectedFiles
}

// maxPathBytes bounds a path argument; PATH_MAX on Linux is 4096 and
// anything longer is a mistake or an attack.
const maxPathBytes = 4096

// maxSymlinkHops bounds symlink chains (the kernel's limit is 40).
const maxSymlinkHops = 40

// NewWorkspace makes a sandbox over the given root directories.
func NewWorkspace(roots ...string) (*Workspace, error) {
	if len(roots) == 0 {
		return nil, fmt.Errorf("workspace: no root given")
	}
	w := &Workspace{}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, fmt.Errorf("workspace root %q: %w", r, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("workspace root %q: %w", r, err)
		}
		handle, err := os.OpenRoot(real)
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("workspace root %q: %w", r, err)
		}
		w.roots = append(w.roots, real)
		w.handles = append(w.handles, handle)
	}
	return w, nil
}

// Close releases the roots' directory handles. File operations after Close
// fail with os.ErrClosed; path methods (Resolve, Rel) keep working.
func (w *Workspace) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	var errs []error
	for _, h := range w.handles {
		errs = append(errs, h.Close())
	}
	return errors.Join(errs...)
}

// handle returns the open handle of roots[i], reopened first when the
// directory at that name is no longer the one it was opened on. The root's
// own name is trusted (the user opened it; its parent is outside the
// workspace and not writable to a sandboxed command): only what lies below
// it goes through the handle.
func (w *Workspace) handle(i int) *os.Root {
	w.mu.Lock()
	defer w.mu.Unlock()
	h := w.handles[i]
	if w.closed {
		return h // closed: operations fail with os.ErrClosed
	}
	now, err := os.Stat(w.roots[i])
	if err != nil {
		return h // gone: operations on the old handle fail as they should
	}
	if opened, err := h.Stat("."); err == nil && os.SameFile(opened, now) {
		return h
	}
	fresh, err := os.OpenRoot(w.roots[i])
	if err != nil {
		return h
	}
	// Operations under way on the old handle finish (os.Root counts them);
	// later ones on it fail with os.ErrClosed.
	h.Close()
	w.handles[i] = fresh
	return fresh
}

// Roots returns the workspace roots, the default one first.
func (w *Workspace) Roots() []string { return append([]string(nil), w.roots...) }

// Resolve turns a path argument into an absolute, cleaned path inside a
// root with every symlink resolved. Relative paths are taken against the
// first root. It refuses `..` escapes, absolute paths outside the roots and
// symlinks (at any depth) that lead outside.
func (w *Workspace) Resolve(p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	if strings.IndexByte(p, 0) >= 0 {
		return "", fmt.Errorf("path %q contains a NUL byte", p)
	}
	if len(p) > maxPathBytes {
		return "", fmt.Errorf("path is too long (%d bytes, limit %d)", len(p), maxPathBytes)
	}
	var lexical string
	if filepath.IsAbs(p) {
		lexical = filepath.Clean(p)
		if !w.Contains(lexical) {
			return "", fmt.Errorf("path %q is outside the workspace (roots: %s)", p, strings.Join(w.roots, ", "))
		}
	} else {
		lexical = filepath.Join(w.roots[0], p)
		if !w.Contains(lexical) {
			return "", fmt.Errorf("path %q escapes the workspace root %s", p, w.roots[0])
		}
	}
	real, err := resolveSymlinks(lexical)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	if !w.Contains(real) {
		return "", fmt.Errorf("path %q resolves through a symlink to %s, outside the workspace", p, real)
	}
	return real, nil
}

// ResolveWrite is Resolve for a path about to be written: it also refuses
// anything inside a .git directory (or the .git file of a worktree).
func (w *Workspace) ResolveWrite(p string) (string, error) {
	real, err := w.Resolve(p)
	if err != nil {
		return "", err
	}
	root := w.rootOf(real)
	rel, err := filepath.Rel(root, real)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", p, err)
	}
	if hasGitComponent(rel) {
		return "", gitWriteError(p)
	}
	return real, nil
}

// hasGitComponent reports whether a relative path has a .git component.
// EqualFold: on case-insensitive file systems .GIT is the same directory.
func hasGitComponent(rel string) bool {
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}

func gitWriteError(p string) error {
	return fmt.Errorf("path %q is inside .git; writing there is not allowed (use git through run_bash)", p)
}

// Rel is the display form of an absolute path: relative to the root that
// holds it ("." for the root itself), unchanged when outside every root.
func (w *Workspace) Rel(abs string) string {
	root := w.rootOf(filepath.Clean(abs))
	if root == "" {
		return abs
	}
	rel, err := filepath.Rel(root, filepath.Clean(abs))
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// Contains reports whether abs lies (lexically) inside one of the roots.
func (w *Workspace) Contains(abs string) bool {
	return w.rootOf(filepath.Clean(abs)) != ""
}

// rootOf returns the longest root holding the cleaned absolute path, or "".
// Longest, because roots may nest and the display path should be the
// shortest one.
func (w *Workspace) rootOf(clean string) string {
	if i := w.rootIndex(clean); i >= 0 {
		return w.roots[i]
	}
	return ""
}

// rootIndex is rootOf as an index into roots and handles, -1 for none.
func (w *Workspace) rootIndex(clean string) int {
	best := -1
	for i, r := range w.roots {
		if within(r, clean) && (best < 0 || len(r) > len(w.roots[best])) {
			best = i
		}
	}
	return best
}

// within reports whether the cleaned path p is root or below it.
func within(root, p string) bool {
	if p == root {
		return true
	}
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(p, prefix)
}

// resolveSymlinks follows every symlink in the cleaned absolute path,
// component by component. Unlike filepath.EvalSymlinks it does not fail on a
// missing tail: once a component does not exist, the rest is appended as is
// (nothing below a missing directory can be a link). So a file about to be
// created is judged by where it would really land, including through a
// dangling symlink.
func resolveSymlinks(abs string) (string, error) {
	vol := filepath.VolumeName(abs)
	resolved := vol + string(filepath.Separator)
	pending := splitPath(abs[len(vol):])
	hops := 0
	for len(pending) > 0 {
		name := pending[0]
		pending = pending[1:]
		next := filepath.Join(resolved, name)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				return filepath.Join(append([]string{next}, pending...)...), nil
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		hops++
		if hops > maxSymlinkHops {
			return "", fmt.Errorf("too many levels of symbolic links at %s", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			// resolved holds no symlinks, so a lexical `..` here is the
			// physical parent.
			target = filepath.Join(resolved, target)
		}
		tvol := filepath.VolumeName(target)
		pending = append(splitPath(filepath.Clean(target)[len(tvol):]), pending...)
		resolved = tvol + string(filepath.Separator)
	}
	return resolved, nil
}

// splitPath splits a cleaned path into its non-empty components.
func splitPath(p string) []string {
	var parts []string
	for _, s := range strings.Split(p, string(filepath.Separator)) {
		if s != "" && s != "." {
			parts = append(parts, s)
		}
	}
	return parts
}
