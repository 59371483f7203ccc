package provider

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// Each retry is reported to the context's hook before its wait, with the
// attempt about to be made, the limit, the delay and the failure; the
// attempt that succeeds reports nothing.
func TestHTTPRetriesReachTheContextHook(t *testing.T) {
	srv, hits := countingServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n <= 2 {
			http.Error(w, `{"type":"error","error":{"type":"overloaded_error"}}`, 529)
			return
		}
		writeFrames(w, frameHi, frameDone)
	})
	var sl sleepLog
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.Sleep = sl.sleep })
	var got []Retry
	ctx := WithRetryHook(context.Background(), func(r Retry) { got = append(got, r) })
	if d := describe(collect(t, p.Stream(ctx, testRequest))); d != "text:hi done" || hits.Load() != 3 {
		t.Fatalf("events %q after %d requests", d, hits.Load())
	}
	delays := sl.get()
	if len(got) != 2 || len(delays) != 2 {
		t.Fatalf("retries reported %+v, delays %v; want 2 of each", got, delays)
	}
	for i, r := range got {
		if r.Attempt != i+2 || r.Max != 4 || r.Delay != delays[i] || r.Err == nil || !strings.Contains(r.Err.Error(), "529") {
			t.Errorf("retry %d = %+v; want attempt %d of 4, delay %v, the 529", i, r, i+2, delays[i])
		}
	}
	// Without a hook nothing is reported and nothing breaks.
	hits.Store(0)
	if d := describe(collect(t, p.Stream(context.Background(), testRequest))); d != "text:hi done" {
		t.Fatalf("without a hook: %q", d)
	}
}
