package control

import (
	"context"
	"sync"
	"time"
)

// defaultIdleNotification is how long after a prompt ended, with no new
// one, the Notification hooks hear that the agent waits for the user
// (Claude Code's idle_prompt, after 60 seconds).
const defaultIdleNotification = 60 * time.Second

// notifyIdle is the notification_type of that wait.
const notifyIdle = "idle_prompt"

// idleNotice is a session's pending idle notification: armed when a
// prompt ends, stopped when the next starts or the session ends. Its hook
// runs on the timer's goroutine, which stop cancels and waits for.
type idleNotice struct {
	mu     sync.Mutex
	timer  *time.Timer
	cancel context.CancelFunc
	wg     sync.WaitGroup // the armed timer and the hook it runs
	ended  bool           // the session ended: nothing is armed again
}

// armIdle arms the session's idle notification (a session with hooks,
// Options.IdleNotification not negative), replacing an armed one.
func (s *Session) armIdle() {
	h, after := s.b.Hooks, s.c.o.IdleNotification
	if h == nil || after < 0 {
		return
	}
	if after == 0 {
		after = defaultIdleNotification
	}
	n := &s.idle
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopLocked()
	if n.ended {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	n.cancel = cancel
	n.wg.Add(1)
	n.timer = time.AfterFunc(after, func() {
		defer n.wg.Done()
		h.Notify(ctx, s.id, notifyIdle, "agent-lsp is waiting for your input")
	})
}

// stopIdle stops the session's idle notification: the timer, or the hook
// it started (killed with its process group), and waits for it. ended
// says the session ends: a prompt still winding down arms nothing.
func (s *Session) stopIdle(ended bool) {
	n := &s.idle
	n.mu.Lock()
	n.stopLocked()
	n.ended = n.ended || ended
	n.mu.Unlock()
	n.wg.Wait()
}

func (n *idleNotice) stopLocked() {
	if n.timer != nil && n.timer.Stop() {
		n.wg.Done() // it will not fire
	}
	if n.cancel != nil {
		n.cancel()
	}
	n.timer, n.cancel = nil, nil
}
