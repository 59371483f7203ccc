package provider

import (
	"context"
	"time"
)

// Retry describes a retry a provider is about to make after a failed
// attempt: the front end shows "retrying (2/4) in 1.2s: <why>" instead of
// a silent wait.
type Retry struct {
	Attempt int           // the attempt about to be made, from 2
	Max     int           // attempts allowed per call, retries included
	Delay   time.Duration // the wait before it
	Err     error         // why the previous attempt failed
}

type retryHookKey struct{}

// WithRetryHook returns a context whose model calls report each retry to
// hook before waiting for it. It is carried by the context, not by the
// Provider, so that every wrapper (a switched model, a recording) passes
// it through unchanged and one model client serves many listeners. hook
// runs on the calling goroutine and should return quickly.
func WithRetryHook(ctx context.Context, hook func(Retry)) context.Context {
	return context.WithValue(ctx, retryHookKey{}, hook)
}

// notifyRetry calls ctx's retry hook, if any.
func notifyRetry(ctx context.Context, r Retry) {
	if hook, ok := ctx.Value(retryHookKey{}).(func(Retry)); ok && hook != nil {
		hook(r)
	}
}
