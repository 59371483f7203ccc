package provider

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps a server's Retry-After: waiting longer than a minute
// inside one model call helps nobody; the caller sees the failure instead.
const maxRetryAfter = 60 * time.Second

// retryableStatus lists the answers that mean "try again later": timeouts,
// conflicts, rate limits, server trouble and Anthropic's 529 overload.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout, 529:
		return true
	}
	return false
}

// retryAfter reads the server's requested delay: "Retry-After-Ms" (OpenAI)
// or "Retry-After" as seconds or an HTTP date, capped at maxRetryAfter.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return capDelay(time.Duration(ms * float64(time.Millisecond))), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs < 0 || math.IsNaN(secs) {
			return 0, false
		}
		if secs > maxRetryAfter.Seconds() {
			return maxRetryAfter, true
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if at, err := http.ParseTime(v); err == nil {
		return capDelay(max(at.Sub(now), 0)), true
	}
	return 0, false
}

func capDelay(d time.Duration) time.Duration { return min(d, maxRetryAfter) }

// backoff is the delay before attempt+1: exponential from base, capped at
// limit, with "equal jitter" (half fixed, half random) so that retries keep
// a minimum spacing but clients do not fall into step.
func backoff(attempt int, base, limit time.Duration) time.Duration {
	d := limit
	if attempt-1 < 32 {
		if exp := base << (attempt - 1); exp > 0 && exp < limit {
			d = exp
		}
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// sleepCtx waits for d or until ctx ends, whichever is first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
