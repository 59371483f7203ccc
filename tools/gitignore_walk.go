package tools

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
)

// walkedFile is one regular file found by walkFiles. Abs is its display
// path; the file itself is reached through dir, a directory the walk opened
// one component at a time below the workspace root, never by Abs.
type walkedFile struct {
	Abs  string
	dir  *walkDir // nil for a start that is a file: then root and name
	root *os.Root
	name string // in dir: one component; in root: the start's path
}

// searchedFile is an open file the search reads.
type searchedFile interface {
	io.Reader
	io.ReaderAt
	io.Closer
}

// open opens the file for reading (O_NONBLOCK: a FIFO swapped in must not
// block the walk).
func (f walkedFile) open() (searchedFile, error) {
	if f.dir != nil {
		return f.dir.openFile(f.name)
	}
	return f.root.OpenFile(f.name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// Info is the file's lstat information.
func (f walkedFile) Info() (fs.FileInfo, error) {
	if f.dir != nil {
		root, err := f.dir.dirRoot()
		if err != nil {
			return nil, err
		}
		return root.Lstat(f.name)
	}
	return f.root.Lstat(f.name)
}

// walkDir is an open directory shared by the walk items below it; the
// last of them to finish closes it. Its platform part (walk_dir_*.go) lists
// it and opens files in it.
type walkDir struct {
	root *os.Root // opened through the parent's Root by one name (on Linux when first needed: dirRoot)
	abs  string   // its display path, the Abs of its files without their names
	walkDirSys
	refs atomic.Int32
}

func (d *walkDir) release() {
	if d != nil && d.refs.Add(-1) == 0 {
		d.close()
	}
}

// dirEntry is one name a directory listing holds and its type bits.
type dirEntry struct {
	name string
	typ  fs.FileMode
}

// walkItem is a directory waiting to be listed or a file waiting to be
// visited, named by its parent's handle and its name there.
type walkItem struct {
	abs    string
	parent *walkDir
	name   string
	isDir  bool
	parts  []string     // directory components relative to the ignore base
	rules  *ignoreRules // rules in force inside this directory
}

// defaultWalkers is the number of goroutines reading directories and
// files: twice the CPUs, because much of the time goes to syscalls.
func defaultWalkers() int { return runtime.GOMAXPROCS(0) * 2 }

// walkFiles calls visit for every regular file at or below start (an
// absolute path inside ws, from Resolve) that .gitignore does not exclude,
// from up to workers goroutines at once (so visit must be safe for
// concurrent use), in no particular order. .gitignore files are read from
// the workspace root holding start down. Skipped: .git (always), symlinks
// (they may lead outside the workspace and can loop), sockets, pipes and
// devices, unreadable directories. A start that is a file is visited even
// when ignored: it was asked for by name. It returns ctx.Err() when
// cancelled.
//
// Every directory is opened through its parent's handle by its one-
// component name (os.Root.OpenRoot), starting from the workspace root's
// handle, so a directory swapped for a symlink to outside mid-walk is
// refused rather than followed.
func walkFiles(ctx context.Context, ws *Workspace, start string, workers int, visit func(walkedFile)) error {
	loc, err := ws.locate(start)
	if err != nil {
		return err
	}
	info, err := loc.root.Stat(loc.rel)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() {
			visit(walkedFile{Abs: start, root: loc.root, name: loc.rel})
		}
		return nil
	}
	rules, parts, err := rulesForStart(loc.root, loc.rel)
	if err != nil {
		return err
	}
	if workers <= 0 {
		workers = defaultWalkers()
	}
	top := &walkDir{root: loc.root} // only its root is used: opening the start
	top.refs.Store(2)               // the start item, and this function: the workspace's handle is never closed
	q := &walkQueue{pending: 1, items: []walkItem{{abs: start, parent: top, name: loc.rel, isDir: true, parts: parts, rules: rules}}}
	q.cond = sync.NewCond(&q.mu)
	stop := context.AfterFunc(ctx, q.abort)
	defer stop()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A listing's items and entries are copied into the queue
			// and walkItems right away: each worker reuses its slices
			// instead of allocating two per directory.
			var items []walkItem
			var entries []dirEntry
			for {
				it, ok := q.pop()
				if !ok {
					return
				}
				if ctx.Err() != nil {
					// AfterFunc's abort runs on its own goroutine and may
					// come late; do not start new work meanwhile.
					q.abort()
					it.parent.release()
					return
				}
				if it.isDir {
					items, entries = listDir(it, items[:0], entries[:0])
					q.push(items)
					clear(items) // the queue holds its copies; drop the references
					clear(entries)
				} else {
					visit(walkedFile{Abs: it.abs, dir: it.parent, name: it.name})
				}
				it.parent.release()
				q.finish()
			}
		}()
	}
	wg.Wait()
	// Items left by an abort still hold their directories open.
	for _, it := range q.items {
		it.parent.release()
	}
	q.items = nil
	return ctx.Err()
}

// listDir opens one directory and appends to out its children that survive
// the ignore rules; entries is scratch space for the listing (both are
// returned for reuse). Open and read errors make the directory look empty:
// a search tool should not fail because one folder is unreadable.
func listDir(dir walkItem, out []walkItem, entries []dirEntry) ([]walkItem, []dirEntry) {
	handle, entries, err := openWalkDir(dir.parent, dir.name, entries)
	if err != nil {
		return out, entries
	}
	handle.abs = dir.abs
	// Paths are built by one concatenation: dir.abs is clean and a name
	// is one component (filepath.Join would clean every one again).
	prefix := dir.abs + string(filepath.Separator)
	if strings.HasSuffix(dir.abs, string(filepath.Separator)) {
		prefix = dir.abs
	}

	rules := dir.rules
	for _, e := range entries {
		if e.name == ".gitignore" && e.typ.IsRegular() {
			if root, err := handle.dirRoot(); err == nil {
				rules, _ = rules.withFile(root, ".gitignore", dir.parts)
			}
			break
		}
	}
	var childParts []string
	if rules != nil && len(rules.patterns) > 0 {
		childParts = make([]string, len(dir.parts)+1)
		copy(childParts, dir.parts)
	}

	for _, e := range entries {
		name, typ := e.name, e.typ
		if name == ".git" || typ&fs.ModeSymlink != 0 || !(typ.IsDir() || typ.IsRegular()) {
			continue
		}
		if childParts != nil {
			childParts[len(childParts)-1] = name
			if rules.excluded(childParts, typ.IsDir()) {
				continue
			}
		}
		it := walkItem{abs: prefix + name, parent: handle, name: name, isDir: typ.IsDir()}
		if it.isDir {
			it.parts = append(dir.parts[:len(dir.parts):len(dir.parts)], name)
			it.rules = rules
		}
		out = append(out, it)
	}
	handle.refs.Store(int32(len(out)))
	if len(out) == 0 {
		handle.close()
	}
	return out, entries
}

// walkQueue is the shared to-do list of the walkers: a LIFO stack (depth
// first keeps directory entries warm in cache) with a count of items queued
// or in progress, so workers know when the walk is over.
type walkQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	items   []walkItem
	pending int
	aborted bool
}

// pop waits for an item; false means the walk is over or aborted.
func (q *walkQueue) pop() (walkItem, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && q.pending > 0 && !q.aborted {
		q.cond.Wait()
	}
	if q.aborted || len(q.items) == 0 {
		return walkItem{}, false
	}
	it := q.items[len(q.items)-1]
	q.items[len(q.items)-1] = walkItem{}
	q.items = q.items[:len(q.items)-1]
	return it, true
}

func (q *walkQueue) push(items []walkItem) {
	if len(items) == 0 {
		return
	}
	q.mu.Lock()
	q.items = append(q.items, items...)
	q.pending += len(items)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// finish marks one popped item done.
func (q *walkQueue) finish() {
	q.mu.Lock()
	q.pending--
	done := q.pending == 0
	q.mu.Unlock()
	if done {
		q.cond.Broadcast()
	}
}

func (q *walkQueue) abort() {
	q.mu.Lock()
	q.aborted = true
	q.mu.Unlock()
	q.cond.Broadcast()
}
