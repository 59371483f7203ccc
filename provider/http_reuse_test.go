package provider

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Two calls one after the other share one HTTP/1.1 connection: after the
// final event the rest of the body is read (within drainLimit) before it
// is closed, so the transport puts the connection back in its pool instead
// of tearing it down (a new TCP and TLS handshake per model call
// otherwise).
func TestHTTPSequentialCallsReuseTheConnection(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		// The final event, then more than one read of the client's SSE
		// reader (32 KiB) of SSE comments before the body ends: the decoder
		// stops at the final event, and only a body read to its end gives
		// the connection back.
		writeFrames(w, frameHi, frameDone)
		_, _ = io.WriteString(w, strings.Repeat(": keep-alive\n", 40<<10/len(": keep-alive\n")))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.Client = &http.Client{Transport: transport} })

	var mu sync.Mutex
	var reused []bool
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		mu.Lock()
		reused = append(reused, info.Reused)
		mu.Unlock()
	}}
	for range 2 {
		ctx := httptrace.WithClientTrace(context.Background(), trace)
		if got := describe(collect(t, p.Stream(ctx, testRequest))); got != "text:hi done" {
			t.Fatalf("events %s", got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(reused, []bool{false, true}) || conns.Load() != 1 {
		t.Errorf("connections reused %v, %d opened; want [false true] and 1", reused, conns.Load())
	}
}
