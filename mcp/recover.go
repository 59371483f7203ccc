package mcp

import (
	"context"
	"time"

	"go.uber.org/zap"
)

// clock is the time source of the restart backoff; tests replace it so a
// one-minute backoff takes no time.
type clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// recoverSoon makes sure a background job brings the server back once its
// backoff has passed: a server that failed at start has no tools mounted,
// so no call would ever restart it. At most one such job runs per server;
// it ends when the server is up, shut down, or down for good (a
// configuration error), and at Close.
func (s *server) recoverSoon() {
	s.mu.Lock()
	if s.recovering || s.closed || s.permanent {
		s.mu.Unlock()
		return
	}
	s.recovering = true
	s.mu.Unlock()
	if !s.m.goBackground(s.recoverLoop) {
		s.mu.Lock()
		s.recovering = false // the manager is closing: nothing to recover
		s.mu.Unlock()
	}
}

// recoverLoop waits out the backoff and restarts the server, again and
// again, until it is up. It shares the dialing slot with calls: a call
// arriving after the backoff may do the restart itself, and the loop then
// only waits for its outcome.
func (s *server) recoverLoop() {
	ctx := s.m.ctx
	for {
		s.mu.Lock()
		if s.closed || s.permanent || s.c != nil || ctx.Err() != nil {
			// Decided under s.mu together with the flag, so a drop that
			// follows sees recovering false and starts a new loop.
			s.recovering = false
			s.mu.Unlock()
			return
		}
		if ch := s.dialing; ch != nil {
			s.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
			}
			continue
		}
		if wait := s.retryAt.Sub(s.m.clock.Now()); wait > 0 {
			s.mu.Unlock()
			select {
			case <-s.m.clock.After(wait):
			case <-ctx.Done():
			}
			continue
		}
		ch := make(chan struct{})
		s.dialing, s.state = ch, StateStarting
		failures := s.failures
		s.mu.Unlock()
		s.log.Info("restarting MCP server in the background", zap.Int("failed_attempts", failures))
		_ = s.restart(ctx, ch) // a failure is recorded (state, retryAt) by connectAndLoad
	}
}

// restart runs one restart attempt in the dialing slot ch, which the
// caller has just taken (s.dialing == ch, state starting), and frees the
// slot. Close abandons the attempt.
func (s *server) restart(ctx context.Context, ch chan struct{}) error {
	s.m.changed()
	dctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.m.ctx, cancel)
	err := s.connectAndLoad(dctx)
	stop()
	cancel()
	s.mu.Lock()
	s.dialing = nil
	s.mu.Unlock()
	close(ch)
	s.m.changed() // WaitReady watches the slot as well as the state
	return err
}
