//go:build unix

package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The symlink race: a directory inside the workspace is swapped, over and
// over, for a symlink to a directory outside (rename it away, symlink in,
// remove the link, rename it back), while the file tools run on paths
// through it. Whatever the interleaving, nothing outside may be read (the
// outside files hold a canary no result may contain, and no file inside
// may come to hold) nor written (the outside tree is compared with its
// first snapshot while the race runs and after).

const (
	raceCanary    = "CANARY-7f3a"
	raceMaxCycles = 3000            // swap cycles at most
	raceMaxTime   = 3 * time.Second // and at most this long
	raceCallers   = 2               // goroutines making tool calls
)

// raceLayout is a workspace with d/ inside and victim/ outside holding the
// same names, so a path through d that is followed to victim finds a file.
type raceLayout struct {
	root, d, away, victim string
	env                   *Env
}

func newRaceLayout(t *testing.T) raceLayout {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l := raceLayout{root: filepath.Join(base, "ws"), victim: filepath.Join(base, "outside", "victim")}
	l.d, l.away = filepath.Join(l.root, "d"), filepath.Join(l.root, "d.away")
	writeSearchFiles(t, l.root, map[string]string{
		"d/read.txt":     "inside read\n",
		"d/edit.txt":     "alpha\n",
		"d/sub/deep.txt": "inside deep\n",
		"top.txt":        "inside top\n",
	})
	writeSearchFiles(t, l.victim, map[string]string{
		"read.txt":                  raceCanary + " read\n",
		"edit.txt":                  "alpha " + raceCanary + "\n",
		"sub/deep.txt":              raceCanary + " deep\n",
		raceCanary + "-listing.txt": raceCanary + "\n",
	})
	ws, err := NewWorkspace(l.root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	l.env = &Env{Workspace: ws, Docs: &DiskDocuments{Workspace: ws}}
	return l
}

// snapshot lists a tree: every entry's path, mode and (for files) content.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out, err := snapshotTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func snapshotTree(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		v := info.Mode().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(data)
		}
		out[p] = v
		return nil
	})
	return out, err
}

func sameSnapshot(a, b map[string]string) string {
	for p, v := range b {
		if a[p] != v {
			return fmt.Sprintf("%s: %q, was %q", p, v, a[p])
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			return p + ": gone"
		}
	}
	return ""
}

// racer swaps l.d and a symlink to l.victim until stop is closed or the
// bounds are reached, checking now and then that the outside tree is
// untouched. It returns the cycles done; a nonempty problem fails the test.
type racer struct {
	cycles  atomic.Int64
	problem atomic.Value
}

func (r *racer) run(l raceLayout, before map[string]string, stop <-chan struct{}) {
	deadline := time.Now().Add(raceMaxTime)
	fail := func(err error) { r.problem.CompareAndSwap(nil, err.Error()) }
	for i := 0; i < raceMaxCycles && time.Now().Before(deadline); i++ {
		select {
		case <-stop:
			return
		default:
		}
		if err := os.Rename(l.d, l.away); err != nil {
			fail(fmt.Errorf("rename away: %w", err))
			return
		}
		// A tool may have recreated d (write_file makes missing parents)
		// while it was away: clear it, the test owns that name.
		for err := os.Symlink(l.victim, l.d); err != nil; err = os.Symlink(l.victim, l.d) {
			if !errors.Is(err, fs.ErrExist) {
				fail(fmt.Errorf("symlink in: %w", err))
				return
			}
			os.RemoveAll(l.d)
		}
		if err := os.Remove(l.d); err != nil {
			fail(fmt.Errorf("remove link: %w", err))
			return
		}
		for err := os.Rename(l.away, l.d); err != nil; err = os.Rename(l.away, l.d) {
			if !errors.Is(err, fs.ErrExist) && !errors.Is(err, syscall.ENOTEMPTY) {
				fail(fmt.Errorf("rename back: %w", err))
				return
			}
			os.RemoveAll(l.d)
		}
		r.cycles.Add(1)
		if i%256 == 0 {
			now, err := snapshotTree(l.victim)
			if err != nil {
				fail(err)
				return
			}
			if diff := sameSnapshot(before, now); diff != "" {
				fail(fmt.Errorf("outside changed during the race: %s", diff))
				return
			}
		}
	}
}

// raceCall is one tool call the race makes again and again.
type raceCall struct {
	tool Tool
	args func(i int) map[string]any
}

func raceCalls() []raceCall {
	return []raceCall{
		{NewReadFile(), func(int) map[string]any { return map[string]any{"path": "d/read.txt"} }},
		{NewReadFile(), func(int) map[string]any { return map[string]any{"path": "d/sub/deep.txt"} }},
		{NewWriteFile(), func(i int) map[string]any {
			return map[string]any{"path": "d/new.txt", "content": fmt.Sprintf("inside %d\n", i)}
		}},
		{NewWriteFile(), func(i int) map[string]any {
			return map[string]any{"path": fmt.Sprintf("d/made/%d/f.txt", i%4), "content": "inside\n"}
		}},
		{NewEditFile(), func(i int) map[string]any {
			old, new := "alpha", "beta"
			if i%2 == 1 {
				old, new = new, old
			}
			return map[string]any{"path": "d/edit.txt", "old_string": old, "new_string": new}
		}},
		{NewGlob(), func(int) map[string]any { return map[string]any{"pattern": "**", "path": "d"} }},
		{NewGlob(), func(int) map[string]any { return map[string]any{"pattern": "d/**"} }},
		{NewGrep(), func(int) map[string]any { return map[string]any{"pattern": ".", "path": "d"} }},
		{NewGrep(), func(int) map[string]any { return map[string]any{"pattern": "CANARY|inside|alpha|beta"} }},
	}
}

func TestFileToolsSymlinkSwapRace(t *testing.T) {
	l := newRaceLayout(t)
	before := snapshot(t, l.victim)
	var r racer
	stop := make(chan struct{})
	racerDone := make(chan struct{})
	go func() {
		defer close(racerDone)
		r.run(l, before, stop)
	}()
	defer func() { close(stop); <-racerDone }()

	// Two callers, each going round the calls: with the racer, as many
	// goroutines as this machine's two cores, so the racer is not starved.
	calls := raceCalls()
	var (
		mu                      sync.Mutex
		leaks                   []string
		ran, failed, overlapped atomic.Int64
	)
	var wg sync.WaitGroup
	for caller := range raceCallers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := caller; ; i++ {
				select {
				case <-racerDone:
					return
				default:
				}
				c := calls[i%len(calls)]
				args := c.args(i / len(calls))
				startCycle := r.cycles.Load()
				res, err := callTool(t, context.Background(), c.tool, l.env, args)
				if r.cycles.Load() != startCycle {
					overlapped.Add(1) // a swap happened during the call
				}
				ran.Add(1)
				text := res.Output
				if err != nil {
					failed.Add(1)
					text = err.Error()
				}
				if strings.Contains(text, raceCanary) {
					mu.Lock()
					leaks = append(leaks, fmt.Sprintf("%s %v: %s", c.tool.Name(), args, text))
					mu.Unlock()
				}
			}
		}()
	}
	<-racerDone
	wg.Wait()
	if p := r.problem.Load(); p != nil {
		t.Fatal(p)
	}
	t.Logf("%d swap cycles; %d tool calls, %d refused or failed, %d with a swap during the call",
		r.cycles.Load(), ran.Load(), failed.Load(), overlapped.Load())
	for _, leak := range leaks {
		t.Errorf("read outside the workspace: %s", leak)
	}
	if diff := sameSnapshot(before, snapshot(t, l.victim)); diff != "" {
		t.Errorf("wrote outside the workspace: %s", diff)
	}
	for p, v := range snapshot(t, l.root) {
		if strings.Contains(v, raceCanary) || strings.Contains(p, raceCanary) {
			t.Errorf("outside content copied into the workspace: %s: %q", p, v)
		}
	}
	if r.cycles.Load() < 100 || overlapped.Load() < 50 {
		t.Errorf("the racer did %d cycles, %d during tool calls: too few to have hit the window", r.cycles.Load(), overlapped.Load())
	}
}

// TestSymlinkSwapRaceHitsCheckThenOpen runs the same racer against the
// old way, Resolve and then open by name, and requires it to read the
// outside file: the race above is able to hit the window it closes.
func TestSymlinkSwapRaceHitsCheckThenOpen(t *testing.T) {
	l := newRaceLayout(t)
	before := snapshot(t, l.victim)
	var r racer
	stop := make(chan struct{})
	racerDone := make(chan struct{})
	go func() {
		defer close(racerDone)
		r.run(l, before, stop)
	}()
	defer func() { close(stop); <-racerDone }()

	attempts, hits := 0, 0
	for hits == 0 {
		select {
		case <-racerDone:
			t.Fatalf("check-then-open never read outside in %d attempts over %d swap cycles: the racer cannot hit the window", attempts, r.cycles.Load())
		default:
		}
		attempts++
		abs, err := l.env.Workspace.Resolve("d/read.txt")
		if err != nil {
			continue
		}
		if data, err := os.ReadFile(abs); err == nil && strings.Contains(string(data), raceCanary) {
			hits++
		}
	}
	t.Logf("check-then-open read the outside file after %d attempts (%d swap cycles)", attempts, r.cycles.Load())
}
