package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// What "Allow always" binds besides the entry's JSON: the workspace files
// the entry executes. `python3 tools/server.py` trusted always would
// otherwise run whatever the repository puts in tools/server.py at the
// next start, unsandboxed and unasked. So every word of the command line
// that names something inside the workspace (the command itself, each
// argument, the value of `--flag=value`, the module of `python -m`,
// relative to the entry's working directory, symlinks resolved) is bound:
// a regular file by the sha256 of its content, a directory by each of its
// files, a symlink out of the workspace by where it points (the target is
// the user's, not hashed), and a path-like word that names nothing by its
// absence, so that a file appearing there later is a change too.
//
// Files outside the workspace are the user's (the interpreter, its
// libraries) and are not hashed. What the interpreter loads on its own
// from the workspace (imports, node_modules, a project file) is not bound:
// the popup says the server runs in the workspace, and the loader
// variables that point into it are flagged (trust_env.go).

// Past these bounds the entry's files are not bound at all: it is then
// asked about at every start (an "always" is not stored), and the popup
// says why. A server is a script or a small package; a tree larger than
// this is more than anyone reviewed when saying yes.
const (
	maxBoundFiles = 256
	maxBoundBytes = 16 << 20
)

// Values of a binding other than a content hash.
const (
	boundAbsent  = "absent"
	boundLink    = "link:"     // followed by the workspace path it points to
	boundLinkOut = "link-out:" // followed by the target's real path
	boundSpecial = "not-file:" // followed by the file mode (a FIFO is never opened)
	boundHash    = "sha256:"   // followed by the content's hex digest
)

// scriptExtensions make a word path-like without a slash: `server.py`
// names a file to bind even while it does not exist.
var scriptExtensions = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".sh", ".bash", ".rb", ".pl",
	".php", ".lua", ".jar", ".exe", ".bin", ".go", ".r", ".R", ".ps1", ".bat", ".cmd"}

// fileBinding is what the entry runs from the workspace: Files by
// slash-separated workspace-relative path, or Unbound saying why it could
// not be bound (too many files, too many bytes, unreadable).
type fileBinding struct {
	Files   map[string]string
	Unbound string
}

// bindFiles computes the binding of a stdio entry as written. A word
// holding a ${VAR} is not resolved: its value is the user's, and the
// entry's hash already covers the word.
func bindFiles(cfg ServerConfig, root string) fileBinding {
	if cfg.Type != TypeStdio || root == "" {
		return fileBinding{}
	}
	dirs, err := serverDirs(cfg, root)
	if err != nil {
		return fileBinding{Unbound: err.Error()}
	}
	b := binder{dirs: dirs, files: map[string]string{}}
	if strings.ContainsRune(cfg.Command, '/') {
		b.word(cfg.Command)
	}
	packageRunner := packageRunners[filepath.Base(cfg.Command)]
	for i, a := range cfg.Args {
		b.word(a)
		b.withExtensions(a)
		if packageRunner && !strings.HasPrefix(a, "-") { // npx pkg runs the workspace's node_modules/pkg first
			pkg := a
			if at := strings.LastIndexByte(pkg, '@'); at > 0 {
				pkg = pkg[:at] // pkg@1.2.3
			}
			b.word("node_modules/" + pkg)
			b.word("node_modules/.bin/" + filepath.Base(pkg))
		}
		// A shell's -c string: each of its words (`sh -c 'tools/x --serve'`).
		if words := strings.FieldsFunc(a, shellSeparator); len(words) > 1 {
			for _, w := range words {
				b.word(w)
			}
		}
		if _, value, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			b.word(value)
		}
		if a == "-m" && i+1 < len(cfg.Args) { // python -m pkg.mod: pkg/mod.py or the package pkg/mod
			mod := strings.ReplaceAll(cfg.Args[i+1], ".", "/")
			b.word(mod + ".py")
			b.word(mod)
		}
	}
	if b.unbound != "" {
		return fileBinding{Unbound: b.unbound}
	}
	return fileBinding{Files: b.files}
}

// dirs are where an entry's words are resolved: the workspace as given,
// its real path, and the server's working directory.
type dirs struct {
	root, rootReal, cwd string
}

// serverDirs are the directories of a stdio entry as written: the
// working directory is the entry's cwd (relative to the workspace), or
// the workspace, as the server is started (connect.go).
func serverDirs(cfg ServerConfig, root string) (dirs, error) {
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return dirs{}, err
	}
	d := dirs{root: filepath.Clean(rootAbs)}
	d.rootReal = d.root
	if r, err := filepath.EvalSymlinks(d.root); err == nil {
		d.rootReal = r
	}
	d.cwd = d.root
	if cfg.Cwd != "" {
		if strings.Contains(cfg.Cwd, "${") {
			return dirs{}, errors.New("its working directory names an environment variable, so the files it runs cannot be bound")
		}
		d.cwd = cfg.Cwd
		if !filepath.IsAbs(d.cwd) {
			d.cwd = filepath.Join(d.root, d.cwd)
		}
		d.cwd = filepath.Clean(d.cwd)
	}
	return d, nil
}

// packageRunners run a package by name, preferring the copy in the
// workspace's node_modules.
var packageRunners = map[string]bool{"npx": true, "pnpx": true, "bunx": true, "npm": true, "pnpm": true, "yarn": true, "bun": true}

// withExtensions binds what a bare word names with a script's extension
// added: `node server` runs ./server.js. Only what exists is bound (a file
// that appears later is a change all the same: the stored binding lacks
// it).
func (b *binder) withExtensions(w string) {
	if w == "" || strings.HasPrefix(w, "-") || filepath.Ext(w) != "" || strings.Contains(w, "${") {
		return
	}
	for _, ext := range scriptExtensions {
		if _, err := os.Lstat(joinUnlessAbs(b.cwd, w+ext)); err == nil {
			b.word(w + ext)
		}
	}
}

type binder struct {
	dirs
	files   map[string]string
	bytes   int64
	unbound string
}

// word binds what one word of the command line names in the workspace.
func (b *binder) word(w string) {
	if w == "" || b.unbound != "" || strings.Contains(w, "${") || strings.Contains(w, "://") {
		return
	}
	p := joinUnlessAbs(b.cwd, w)
	lexicalKey, lexicallyInside := b.key(p)
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if lexicallyInside && pathLike(w) && errors.Is(err, fs.ErrNotExist) {
			b.set(lexicalKey, boundAbsent)
		}
		return
	}
	realKey, reallyInside := b.keyReal(real)
	switch {
	case reallyInside && real == b.rootReal:
		// The workspace itself (`--directory .`): the server runs in it,
		// which the popup says; binding every file of it is not a review.
	case reallyInside:
		b.bindReal(realKey, real)
		if lexicallyInside && lexicalKey != realKey {
			b.set(lexicalKey, boundLink+realKey) // where the link points is bound too
		}
	case lexicallyInside:
		b.set(lexicalKey, boundLinkOut+real)
	}
}

// bindReal binds the file or directory at real (inside the workspace,
// symlinks resolved) under key.
func (b *binder) bindReal(key, real string) {
	fi, err := os.Lstat(real)
	if err != nil {
		b.unbound = fmt.Sprintf("%s cannot be read: %v", key, err)
		return
	}
	switch {
	case fi.Mode().IsRegular():
		b.hashFile(key, real, fi.Size())
	case fi.IsDir():
		err := filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if b.unbound != "" {
				return filepath.SkipAll
			}
			if p == real || d.IsDir() {
				return nil
			}
			k, _ := b.keyReal(p)
			if d.Type()&fs.ModeSymlink != 0 {
				target, err := filepath.EvalSymlinks(p)
				if err != nil {
					b.set(k, boundAbsent)
					return nil
				}
				if tk, inside := b.keyReal(target); inside {
					b.set(k, boundLink+tk)
				} else {
					b.set(k, boundLinkOut+target)
				}
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			if !info.Mode().IsRegular() {
				b.set(k, boundSpecial+info.Mode().Type().String())
				return nil
			}
			b.hashFile(k, p, info.Size())
			return nil
		})
		if err != nil && b.unbound == "" {
			b.unbound = fmt.Sprintf("%s cannot be read: %v", key, err)
		}
	default:
		b.set(key, boundSpecial+fi.Mode().Type().String())
	}
}

// hashFile binds a regular file by its content, within the bounds.
func (b *binder) hashFile(key, p string, size int64) {
	if _, seen := b.files[key]; seen {
		return
	}
	if len(b.files) >= maxBoundFiles {
		b.unbound = fmt.Sprintf("it runs more than %d files from the workspace, too many to bind", maxBoundFiles)
		return
	}
	if b.bytes+size > maxBoundBytes {
		b.unbound = fmt.Sprintf("it runs more than %d MiB of workspace files, too many to bind", maxBoundBytes>>20)
		return
	}
	f, err := os.Open(p)
	if err != nil {
		b.unbound = fmt.Sprintf("%s cannot be read: %v", key, err)
		return
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, maxBoundBytes-b.bytes+1))
	b.bytes += n
	switch {
	case err != nil:
		b.unbound = fmt.Sprintf("%s cannot be read: %v", key, err)
	case b.bytes > maxBoundBytes:
		b.unbound = fmt.Sprintf("it runs more than %d MiB of workspace files, too many to bind", maxBoundBytes>>20)
	default:
		b.set(key, boundHash+hex.EncodeToString(h.Sum(nil)))
	}
}

func (b *binder) set(key, value string) {
	if _, seen := b.files[key]; !seen {
		b.files[key] = value
	}
}

// key is p's workspace-relative path when p lies lexically inside the
// workspace (as given or as its real path).
func (d dirs) key(p string) (string, bool) {
	if k, ok := relInside(d.root, p); ok {
		return k, true
	}
	return relInside(d.rootReal, p)
}

// keyReal is key for a path whose symlinks are resolved.
func (d dirs) keyReal(real string) (string, bool) {
	return relInside(d.rootReal, real)
}

// inside reports whether the word w (relative to the working directory)
// names a place in the workspace, lexically or through symlinks.
func (d dirs) inside(w string) bool {
	p := joinUnlessAbs(d.cwd, w)
	if _, ok := d.key(p); ok {
		return true
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	_, ok := d.keyReal(real)
	return ok
}

func shellSeparator(r rune) bool {
	return strings.ContainsRune(" \t\n;&|()<>`'\"", r)
}

func joinUnlessAbs(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

func relInside(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// pathLike reports whether a word that names nothing still reads as a
// file to run: it has a slash or a script's extension.
func pathLike(w string) bool {
	if strings.ContainsRune(w, '/') {
		return !strings.HasPrefix(w, "-")
	}
	ext := filepath.Ext(w)
	for _, e := range scriptExtensions {
		if ext == e {
			return true
		}
	}
	return false
}
