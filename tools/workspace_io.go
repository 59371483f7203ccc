package tools

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// File I/O inside the workspace. Every operation takes the absolute path
// Resolve returned (it is the display path and the editor's key) and does
// its I/O through the os.Root of the root holding it, with the path
// relative to that root. os.Root walks the path one component at a time
// from the root's handle (openat with O_NOFOLLOW, symlinks resolved by hand)
// and refuses any step that would leave the root, so what Resolve checked by
// name cannot be swapped for a symlink to outside before the open: the open
// itself is confined.
//
// Writes go further: the directory a file is written in is opened from the
// root one component at a time, refusing symlinks (Resolve returned a path
// without any, so one showing up is a swap in progress) and .git, and the
// file is written there as a temp file renamed over the target. So a write
// can neither leave the workspace nor be steered into .git through a
// directory swapped for a link to it.

// rootedPath is a workspace path as its root's handle sees it.
type rootedPath struct {
	root *os.Root
	rel  string // relative to the root, OS separators; "." is the root itself
}

// locate finds the root holding abs (lexically: abs comes from Resolve).
func (w *Workspace) locate(abs string) (rootedPath, error) {
	clean := filepath.Clean(abs)
	if !filepath.IsAbs(clean) {
		return rootedPath{}, fmt.Errorf("path %q is not absolute", abs)
	}
	i := w.rootIndex(clean)
	if i < 0 {
		return rootedPath{}, fmt.Errorf("path %q is outside the workspace", abs)
	}
	rel, err := filepath.Rel(w.roots[i], clean)
	if err != nil {
		return rootedPath{}, fmt.Errorf("path %q: %w", abs, err)
	}
	return rootedPath{root: w.handle(i), rel: rel}, nil
}

// Open opens the file at abs for reading through the workspace root.
// O_NONBLOCK: opening a FIFO put there after a check must not block; it
// changes nothing for regular files.
func (w *Workspace) Open(abs string) (*os.File, error) {
	loc, err := w.locate(abs)
	if err != nil {
		return nil, err
	}
	return loc.root.OpenFile(loc.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openRegular opens abs for reading and checks that it is a regular file:
// a FIFO or a device would block or never end. The caller closes it.
func (w *Workspace) openRegular(abs string) (*os.File, fs.FileInfo, error) {
	f, err := w.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("stat %s: %w", abs, err)
	}
	if fi.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is a directory, not a file", abs)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is not a regular file (%s)", abs, fi.Mode().Type())
	}
	return f, fi, nil
}

// Stat returns the file info of abs (a final symlink followed, inside the
// workspace only).
func (w *Workspace) Stat(abs string) (fs.FileInfo, error) {
	loc, err := w.locate(abs)
	if err != nil {
		return nil, err
	}
	return loc.root.Stat(loc.rel)
}

// ReadDir lists the directory at abs, unsorted.
func (w *Workspace) ReadDir(abs string) ([]fs.DirEntry, error) {
	loc, err := w.locate(abs)
	if err != nil {
		return nil, err
	}
	d, err := loc.root.Open(loc.rel)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(-1)
}

// ReadFile reads the regular file at abs, at most limit bytes; a longer
// file is an error.
func (w *Workspace) ReadFile(abs string, limit int64) ([]byte, error) {
	f, err := w.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", abs, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", abs, fi.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", abs, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is too large (over %d bytes)", abs, limit)
	}
	return data, nil
}

// MkdirAll creates the directory abs and its missing parents, refusing
// symlinks and .git on the way (see openWritableDir).
func (w *Workspace) MkdirAll(abs string) error {
	loc, err := w.locate(abs)
	if err != nil {
		return err
	}
	d, err := openWritableDir(loc.root, loc.rel, abs, true)
	if err != nil {
		return err
	}
	return d.Close()
}

// writeFile replaces the file at abs with data, atomically: a temp file in
// the same directory is written, fsynced, given the target's mode (or
// newFileMode for a new file) and renamed over the target, so readers see
// the old file or the new one and a crash leaves at worst a stray temp
// file. Missing parent directories are created. data is a string, the
// form file texts have here: os.File.WriteString writes it without a copy.
func (w *Workspace) writeFile(abs string, data string) (err error) {
	loc, err := w.locate(abs)
	if err != nil {
		return err
	}
	dirRel, name := filepath.Split(loc.rel)
	if name == "" || name == "." || name == ".." {
		return fmt.Errorf("write %s: not a file path", abs)
	}
	if dirRel == "" {
		dirRel = "."
	}
	dir, err := openWritableDir(loc.root, filepath.Clean(dirRel), abs, true)
	if err != nil {
		return err
	}
	defer dir.Close()
	if hasGitComponent(name) {
		return gitWriteError(abs)
	}
	mode, err := targetMode(dir, name)
	if err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	tmpName, tmp, err := createTemp(dir, name)
	if err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			dir.Remove(tmpName)
		}
	}()
	if _, err = tmp.WriteString(data); err != nil {
		return fmt.Errorf("write %s: %w", abs, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("chmod %s: %w", abs, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", abs, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", abs, err)
	}
	// Both names are single components of the directory just opened: the
	// rename cannot follow a link anywhere, and it replaces a symlink put
	// at the target's name rather than writing through it.
	if err = dir.Rename(tmpName, name); err != nil {
		return fmt.Errorf("rename into %s: %w", abs, err)
	}
	// Make the rename itself durable. Best effort: some file systems
	// refuse to fsync a directory, and the data is already in place.
	if df, derr := dir.Open("."); derr == nil {
		_ = df.Sync()
		df.Close()
	}
	return nil
}

// targetMode is the mode a write of name in dir gives the file: the
// existing file's, or newFileMode for a new one. A symlink at name that
// leads out of dir (or nowhere) counts as new: the rename replaces the
// link itself and nothing is written where it points.
func targetMode(dir *os.Root, name string) (fs.FileMode, error) {
	fi, err := dir.Stat(name)
	if err == nil {
		if fi.IsDir() {
			return 0, errors.New("is a directory")
		}
		return fi.Mode().Perm(), nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return newFileMode, nil
	}
	if lfi, lerr := dir.Lstat(name); lerr == nil && lfi.Mode()&fs.ModeSymlink != 0 {
		return newFileMode, nil
	}
	return 0, err
}

// createTemp creates a new, empty, private file next to name in dir.
func createTemp(dir *os.Root, name string) (string, *os.File, error) {
	for range 100 {
		tmpName := "." + name + ".agent-tmp-" + strconv.FormatUint(rand.Uint64(), 36)
		// O_EXCL: never opens an existing file, nor follows a symlink.
		f, err := dir.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return tmpName, f, err
	}
	return "", nil, errors.New("could not create a temporary file")
}

// removeFile deletes the file at abs; a missing one is already gone.
func (w *Workspace) removeFile(abs string) error {
	loc, err := w.locate(abs)
	if err != nil {
		return err
	}
	dirRel, name := filepath.Split(loc.rel)
	if dirRel == "" {
		dirRel = "."
	}
	dir, err := openWritableDir(loc.root, filepath.Clean(dirRel), abs, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", abs, err)
	}
	defer dir.Close()
	if hasGitComponent(name) {
		return gitWriteError(abs)
	}
	if err := dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("delete %s: %w", abs, err)
	}
	return nil
}

// errSwapped reports a directory that turned into a symlink (or another
// directory) between looking at it and opening it.
var errSwapped = errors.New("changed while being opened (a symlink swapped in?); not followed")

// openWritableDir opens the directory rel below root for writing into it,
// one component at a time: each must be a real directory (not a symlink),
// not named .git, and the directory opened must be the one looked at
// (same device and inode), so a component swapped for a symlink in between
// is caught. With create, missing components are made (mode 0755). The
// caller closes the returned Root. abs names the path in errors.
func openWritableDir(root *os.Root, rel, abs string, create bool) (*os.Root, error) {
	cur, err := root.OpenRoot(".")
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return cur, nil
	}
	for _, part := range splitPath(rel) {
		if part == ".." {
			cur.Close()
			return nil, fmt.Errorf("path %s: %q component not allowed", abs, part)
		}
		if hasGitComponent(part) {
			cur.Close()
			return nil, gitWriteError(abs)
		}
		next, err := openChildDir(cur, part, create)
		cur.Close()
		if err != nil {
			return nil, fmt.Errorf("directory %s of %s: %w", part, abs, err)
		}
		cur = next
	}
	return cur, nil
}

// openChildDir opens the directory name (one component) in parent, without
// following a symlink, creating it first when asked.
func openChildDir(parent *os.Root, name string, create bool) (*os.Root, error) {
	fi, err := parent.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err = parent.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = parent.Lstat(name)
	}
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("is a symlink: %w", errSwapped)
	}
	if !fi.IsDir() {
		return nil, syscall.ENOTDIR
	}
	child, err := parent.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	opened, err := child.Stat(".")
	if err != nil {
		child.Close()
		return nil, err
	}
	if !os.SameFile(fi, opened) {
		child.Close()
		return nil, errSwapped
	}
	return child, nil
}
