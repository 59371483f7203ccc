package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// walkedFile is one regular file found by walkFiles.
type walkedFile struct {
	Abs   string
	Entry fs.DirEntry // nil when the start path itself was a file
}

// walkItem is a directory waiting to be listed or a file waiting to be
// visited.
type walkItem struct {
	abs   string
	entry fs.DirEntry
	isDir bool
	parts []string     // directory components relative to the ignore base
	rules *ignoreRules // rules in force inside this directory
}

// defaultWalkers is the number of goroutines reading directories and
// files: twice the CPUs, because much of the time goes to syscalls.
func defaultWalkers() int { return runtime.GOMAXPROCS(0) * 2 }

// walkFiles calls visit for every regular file at or below start that
// .gitignore does not exclude, from up to workers goroutines at once (so
// visit must be safe for concurrent use), in no particular order. base is
// the directory .gitignore files are read from (start or an ancestor).
// Skipped: .git (always), symlinks (they may lead outside the workspace and
// can loop), sockets, pipes and devices, unreadable directories. A start
// that is a file is visited even when ignored: it was asked for by name.
// It returns ctx.Err() when cancelled.
func walkFiles(ctx context.Context, base, start string, workers int, visit func(walkedFile)) error {
	info, err := os.Stat(start)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if info.Mode().IsRegular() {
			visit(walkedFile{Abs: start})
		}
		return nil
	}
	rules, parts, err := rulesForStart(base, start)
	if err != nil {
		return err
	}
	if workers <= 0 {
		workers = defaultWalkers()
	}
	q := &walkQueue{pending: 1, items: []walkItem{{abs: start, isDir: true, parts: parts, rules: rules}}}
	q.cond = sync.NewCond(&q.mu)
	stop := context.AfterFunc(ctx, q.abort)
	defer stop()

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				it, ok := q.pop()
				if !ok {
					return
				}
				if ctx.Err() != nil {
					// AfterFunc's abort runs on its own goroutine and may
					// come late; do not start new work meanwhile.
					q.abort()
					return
				}
				if it.isDir {
					q.push(listDir(it))
				} else {
					visit(walkedFile{Abs: it.abs, Entry: it.entry})
				}
				q.finish()
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// listDir reads one directory and returns its children that survive the
// ignore rules. Read errors make the directory look empty: a search tool
// should not fail because one folder is unreadable.
func listDir(dir walkItem) []walkItem {
	f, err := os.Open(dir.abs)
	if err != nil {
		return nil
	}
	entries, _ := f.ReadDir(-1) // unsorted: cheaper than os.ReadDir
	f.Close()

	rules := dir.rules
	for _, e := range entries {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			rules, _ = rules.withFile(filepath.Join(dir.abs, ".gitignore"), dir.parts)
			break
		}
	}
	var childParts []string
	if rules != nil && len(rules.patterns) > 0 {
		childParts = make([]string, len(dir.parts)+1)
		copy(childParts, dir.parts)
	}

	out := make([]walkItem, 0, len(entries))
	for _, e := range entries {
		name := e.Name()
		typ := e.Type()
		if name == ".git" || typ&fs.ModeSymlink != 0 || !(typ.IsDir() || typ.IsRegular()) {
			continue
		}
		if childParts != nil {
			childParts[len(childParts)-1] = name
			if rules.excluded(childParts, typ.IsDir()) {
				continue
			}
		}
		it := walkItem{abs: filepath.Join(dir.abs, name), entry: e, isDir: typ.IsDir()}
		if it.isDir {
			it.parts = append(dir.parts[:len(dir.parts):len(dir.parts)], name)
			it.rules = rules
		}
		out = append(out, it)
	}
	return out
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
