package mcp

import (
	"context"
	"errors"
	"runtime"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Linux delivers a child's death signal (Pdeathsig, procgroup_linux.go)
// when the *thread* that forked it exits, not the process. Go moves
// goroutines between threads, and a thread does exit when a goroutine
// locked to it ends without unlocking (code that changes a thread's
// namespaces or credentials ends it that way on purpose): a server forked
// from such a thread would be killed at a random moment. So every server
// process is forked by one goroutine locked to its thread for the
// manager's whole life. Nothing else ever runs on that thread, so it exits
// only with the daemon (then the kernel kills the servers, as wanted) or
// when Close ends the spawner, after it stopped every server: the
// goroutine then ends still locked, the runtime ends the thread with it,
// and any straggler it forked gets its SIGKILL too.
//
// Only the fork runs there (CommandTransport.Connect makes the pipes and
// starts the process; the handshake happens after it returns), so one
// thread serves every server without making any wait on another.

var errSpawnerStopped = errors.New("the MCP manager is closed")

// spawner runs process starts on its own locked OS thread.
type spawner struct {
	jobs     chan func()
	stopped  chan struct{} // closed by stop
	exited   chan struct{} // closed when the loop has ended
	stopOnce sync.Once
}

func newSpawner() *spawner {
	sp := &spawner{jobs: make(chan func()), stopped: make(chan struct{}), exited: make(chan struct{})}
	go sp.loop()
	return sp
}

func (sp *spawner) loop() {
	// Never unlocked: see above.
	runtime.LockOSThread()
	defer close(sp.exited)
	for {
		select {
		case job := <-sp.jobs:
			job()
		case <-sp.stopped:
			return
		}
	}
}

// run runs f on the spawner's thread and returns when it has; f must be
// quick. It fails without running f when ctx ends first or the spawner
// was stopped.
func (sp *spawner) run(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	select {
	case sp.jobs <- func() { defer close(ran); f() }:
	case <-sp.stopped:
		return errSpawnerStopped
	case <-ctx.Done():
		return ctx.Err()
	}
	<-ran
	return nil
}

// stop ends the loop (and with it the thread) and waits for it.
func (sp *spawner) stop() {
	sp.stopOnce.Do(func() { close(sp.stopped) })
	<-sp.exited
}

// spawnedTransport starts its inner transport's process on the spawner's
// thread.
// started runs once the inner Connect returned, failed or not (an
// ordinary user's contained tree waits for it: containTree).
type spawnedTransport struct {
	inner   sdk.Transport
	sp      *spawner
	started func()
}

func (t spawnedTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	var conn sdk.Connection
	var err error
	rerr := t.sp.run(ctx, func() { conn, err = t.inner.Connect(ctx) })
	t.started() // also when the job never ran: the gate is closed then
	if rerr != nil {
		return nil, rerr
	}
	return conn, err
}
