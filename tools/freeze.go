package tools

import (
	"context"
	"sync"
)

// CommandFreezer pauses the commands a runner has running. A front end
// whose edits are written by someone else, by path (the editor saving
// after workspace/applyEdit, an ACP client's fs/write_text_file), freezes
// the commands around the write: a sandboxed command that swaps a
// workspace directory for a symlink cannot do it between the check that
// the path stays inside the workspace and the write that follows the path.
// (Our own writes go through os.Root and need none of this.)
type CommandFreezer interface {
	// Freeze stops every process of every running command and keeps new
	// commands from starting, until thaw is called; thaw must be called
	// once, also after a panic (defer it; later calls do nothing). An error (ctx ended, a
	// process that would not stop in time) leaves nothing stopped.
	Freeze(ctx context.Context) (thaw func(), err error)
}

// commandSet is a runner's running commands and its freeze: a command is
// admitted (it may start) only while no freeze holds, and a freeze begins
// only once every admitted command has registered its root process or
// given up, so no command starts unseen while the others are stopped.
type commandSet struct {
	mu       sync.Mutex
	roots    map[*commandRoot]struct{}
	starting int           // admitted, not yet registered
	frozen   bool          // a freeze holds
	changed  chan struct{} // closed and replaced when starting or frozen changes
}

// commandRoot is a running command's first process (bash; under a PID
// namespace also the namespace's init, so everything the command starts
// descends from it). handle pins the process (a pidfd on Linux), so a
// signal never reaches a later process that got its pid.
type commandRoot struct {
	pid    int
	handle processHandle
}

// wait returns the channel that is closed at the next change. mu held.
func (c *commandSet) wait() <-chan struct{} {
	if c.changed == nil {
		c.changed = make(chan struct{})
	}
	return c.changed
}

// notify wakes the waiters. mu held.
func (c *commandSet) notify() {
	if c.changed != nil {
		close(c.changed)
		c.changed = nil
	}
}

// admit waits until no freeze holds and counts the command as starting;
// the caller must call registered once the command started or failed to.
func (c *commandSet) admit(ctx context.Context) error {
	for {
		c.mu.Lock()
		if !c.frozen {
			c.starting++
			c.mu.Unlock()
			return nil
		}
		ch := c.wait()
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// registered ends an admission: root is the started command's root
// process, nil when it did not start.
func (c *commandSet) registered(root *commandRoot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.starting--
	if root != nil {
		if c.roots == nil {
			c.roots = map[*commandRoot]struct{}{}
		}
		c.roots[root] = struct{}{}
	}
	c.notify()
}

// ended forgets a command whose root process has been waited for.
func (c *commandSet) ended(root *commandRoot) {
	c.mu.Lock()
	delete(c.roots, root)
	c.mu.Unlock()
	root.handle.release()
}

// Freeze implements CommandFreezer for the runner's commands: it waits for
// commands being started to show their root process and for any other
// freeze to end, then stops every process of every command (stopTrees).
func (c *commandSet) Freeze(ctx context.Context) (func(), error) {
	var roots []*commandRoot
	for {
		c.mu.Lock()
		if !c.frozen && c.starting == 0 {
			c.frozen = true
			for r := range c.roots {
				roots = append(roots, r)
			}
			c.mu.Unlock()
			break
		}
		ch := c.wait()
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	unfreeze := func() {
		c.mu.Lock()
		c.frozen = false
		c.notify()
		c.mu.Unlock()
	}
	stopped, err := stopTrees(ctx, roots)
	if err != nil {
		unfreeze()
		return nil, err
	}
	// Once: a second call must not continue processes a later freeze
	// stopped.
	var once sync.Once
	return func() {
		once.Do(func() {
			stopped.resume()
			unfreeze()
		})
	}, nil
}
