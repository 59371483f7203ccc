package sandbox

import (
	"context"
	"sync"
)

// supervisors own the goroutines that watch running commands' sockets
// (the unix socket supervision and the host port forwarding,
// sockets_linux.go): each ends with its command, and all of them when
// the Sandbox closes. They also keep the unix sockets a command was
// refused, for Explain.
type supervisors struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	refused []string      // unix socket paths refused, oldest first, at most maxRefused
	active  int           // supervisors running
	changed chan struct{} // closed when active changes (then replaced)
}

const maxRefused = 16

func (v *supervisors) init() {
	v.ctx, v.cancel = context.WithCancel(context.Background())
	v.changed = make(chan struct{})
}

// stop ends every supervisor and waits for them.
func (v *supervisors) stop() {
	if v.cancel != nil {
		v.cancel()
	}
	v.wg.Wait()
}

// go runs f as a supervisor, with the context that ends when the Sandbox
// closes.
func (v *supervisors) run(f func(ctx context.Context)) {
	v.wg.Add(1)
	v.count(+1)
	go func() {
		defer v.wg.Done()
		defer v.count(-1)
		f(v.ctx)
	}()
}

func (v *supervisors) count(delta int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.active += delta
	close(v.changed)
	v.changed = make(chan struct{})
}

// running is how many supervisors run, and a channel closed at the next
// change of that number.
func (v *supervisors) running() (int, <-chan struct{}) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.active, v.changed
}

// refuse records a refused unix socket.
func (v *supervisors) refuse(path string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, p := range v.refused {
		if p == path {
			return
		}
	}
	v.refused = append(v.refused, path)
	if len(v.refused) > maxRefused {
		v.refused = v.refused[1:]
	}
}

// takeRefused returns the refused unix sockets recorded since the last
// call and forgets them.
func (v *supervisors) takeRefused() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.refused
	v.refused = nil
	return out
}
