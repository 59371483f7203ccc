package sandbox

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
)

// probeState is the check of what this machine supports, made lazily:
// New only asks the kernel (Landlock's ABI) and finds bash; the check
// that starts a confined command runs on the first Status (a command
// about to start) or once Start is called (the daemon, after its
// initialize reply), never on the way to a first answer. Whoever needs
// the truth waits for it (Status); whoever only reports it reads Current,
// which says "checking" until it is known.
type probeState struct {
	ctx    context.Context // ends at Close: the launches stop, the goroutine returns
	cancel context.CancelFunc
	done   sync.WaitGroup // the probe's goroutine

	mu      sync.Mutex
	started bool
	closed  bool           // stop was called: nothing more may start (done.Add after Wait)
	known   chan struct{}  // closed once status is final
	onKnown []func(Status) // called once, when known
	pending Status         // what Current says until then (Checking)
}

func (p *probeState) init(pending Status) {
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.known = make(chan struct{})
	pending.Checking = true
	p.pending = pending
}

// Start begins the check in the background when it has not begun; it
// returns at once. The goroutine it starts ends with the check, which
// Close cuts short.
func (s *Sandbox) Start() {
	p := &s.probe
	p.mu.Lock()
	if p.started {
		p.mu.Unlock()
		return
	}
	p.started = true
	if p.closed {
		p.mu.Unlock()
		s.status.Unavailable = errClosedUnchecked
		s.finishProbe()
		return
	}
	p.done.Add(1) // under mu, before stop's Wait
	p.mu.Unlock()
	go func() {
		defer p.done.Done()
		s.launchProbe(p.ctx)
		s.finishProbe()
		if s.cacheDir != "" && s.cacheDir != filepath.Join(s.tmpDir, "cache") {
			pruneCaches(p.ctx, filepath.Dir(s.cacheDir), s.cacheDir)
		}
	}()
}

// finishProbe makes the status final and tells whoever waits. Only the
// one who ran the check calls it, once.
func (s *Sandbox) finishProbe() {
	if s.status.Active && filterArch() == 0 {
		s.status.Limits = append(s.status.Limits, "no seccomp filter on "+runtime.GOARCH+": unix sockets outside the workspace are not refused")
	}
	p := &s.probe
	p.mu.Lock()
	p.started = true
	close(p.known)
	calls := p.onKnown
	p.onKnown = nil
	p.mu.Unlock()
	for _, f := range calls {
		f(s.copyStatus())
	}
}

// Status says what the sandbox holds, once known: it starts the check
// when nobody has and waits for it (each launch of the check is bounded
// by probeTimeout, and Close ends it), so that nothing is decided, and no
// command started, on a guess.
func (s *Sandbox) Status() Status {
	s.Start()
	<-s.probe.known
	return s.copyStatus()
}

// Current says what is known now without waiting: Checking (never
// Active) while the check runs or has not begun.
func (s *Sandbox) Current() Status {
	select {
	case <-s.probe.known:
		return s.copyStatus()
	default:
		st := s.probe.pending
		st.Limits = append([]string(nil), st.Limits...)
		return st
	}
}

// OnKnown calls f with the final status once the check has ended (at
// once, on this goroutine, when it has; else on the check's goroutine).
// It does not start the check.
func (s *Sandbox) OnKnown(f func(Status)) {
	p := &s.probe
	p.mu.Lock()
	select {
	case <-p.known:
		p.mu.Unlock()
		f(s.copyStatus())
	default:
		p.onKnown = append(p.onKnown, f)
		p.mu.Unlock()
	}
}

// copyStatus is the final status; call it only once known is closed.
func (s *Sandbox) copyStatus() Status {
	st := s.status
	st.Limits = append([]string(nil), st.Limits...)
	return st
}

// stopProbe cuts a running check short and waits for its goroutine.
func (p *probeState) stop() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.done.Wait()
}

// errClosedUnchecked is the status of a sandbox closed before (or while)
// it was checked: nothing is concluded from a launch Close cut short.
const errClosedUnchecked = "the sandbox was closed before it was checked"
