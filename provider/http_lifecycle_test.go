package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/agent-lsp/agent-lsp/internal/await"
)

// hangingServer sends frames, then holds the connection open until the
// client goes away, which it reports on the returned channel.
func hangingServer(t *testing.T, frames ...string) (url string, clientGone <-chan struct{}) {
	t.Helper()
	gone := make(chan struct{}, 16)
	srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		// The server only watches for the client closing once the body is read.
		_, _ = io.Copy(io.Discard, r.Body)
		if len(frames) > 0 {
			writeFrames(w, frames...)
		}
		select {
		case <-r.Context().Done():
			gone <- struct{}{}
		case <-t.Context().Done(): // the test ended without the client going
		}
	})
	return srv.URL, gone
}

func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	await.Event(t, gone, "the server to see the connection close")
}

// A cancel mid-stream fails the stream at once. On synctest's clock "at
// once" is exact: the time from cancel to failure is what the client
// waited on timers, and a Read left blocked until the server gives up
// would wait the server's 10 s.
func TestHTTPCancelMidStreamIsPrompt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gone := make(chan struct{}, 1)
		client, url := pipeServer(t, func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			writeFrames(w, frameHi)
			// The server gives up after 10 s (of the bubble's clock).
			held, cancel := context.WithTimeout(r.Context(), 10*time.Second)
			defer cancel()
			<-held.Done()
			if r.Context().Err() != nil {
				gone <- struct{}{}
			}
		})
		p := newTestHTTP(t, url, func(o *HTTPOptions) { o.Client = client })
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var cancelledAt time.Time
		var events []Event
		for e := range p.Stream(ctx, testRequest) {
			events = append(events, e)
			if e.Type == EventText {
				cancelledAt = time.Now()
				cancel()
			}
		}
		if took := time.Since(cancelledAt); took > 100*time.Millisecond {
			t.Errorf("the failure came %v (bubble time) after cancel; want within 100ms", took)
		}
		if got := describe(events); got != "text:hi failure:model API request cancelled: context canceled" {
			t.Fatalf("events %s", got)
		}
		if !errors.Is(events[1].Err, context.Canceled) {
			t.Errorf("failure %v does not wrap context.Canceled", events[1].Err)
		}
		<-gone // the server saw the connection close (never: synctest reports the deadlock)
	})
}

func TestHTTPIdleTimeout(t *testing.T) {
	t.Run("after an event: failure, no retry", func(t *testing.T) {
		url, gone := hangingServer(t, frameHi)
		var sl sleepLog
		// Generous: on a loaded machine under -race the first frame itself
		// can take longer than 100ms to arrive.
		p := newTestHTTP(t, url, func(o *HTTPOptions) { o.IdleTimeout = time.Second; o.Sleep = sl.sleep })
		got := describe(collect(t, p.Stream(context.Background(), testRequest)))
		if got != "text:hi failure:model API stream idle for 1s" || len(sl.get()) != 0 {
			t.Errorf("events %s, retry delays %v", got, sl.get())
		}
		waitGone(t, gone)
	})
	t.Run("no headers at all: retried, then failure", func(t *testing.T) {
		url, gone := hangingServer(t)
		var sl sleepLog
		p := newTestHTTP(t, url, func(o *HTTPOptions) {
			o.IdleTimeout = 100 * time.Millisecond
			o.Sleep = sl.sleep
			o.MaxAttempts = 2
		})
		events := collect(t, p.Stream(context.Background(), testRequest))
		if got := describe(events); got != "failure:model API stream idle for 100ms (after 2 attempts)" {
			t.Errorf("events %s", got)
		}
		var idle *IdleTimeoutError
		if !errors.As(events[0].Err, &idle) || idle.Idle != 100*time.Millisecond {
			t.Errorf("failure %v is not an *IdleTimeoutError", events[0].Err)
		}
		waitGone(t, gone)
	})
	t.Run("keep-alive comments keep a slow stream alive", func(t *testing.T) {
		// On synctest's clock the pings come exactly 100 ms apart and the
		// idle timer fires only after a full second without a byte.
		synctest.Test(t, func(t *testing.T) {
			client, url := pipeServer(t, func(w http.ResponseWriter, r *http.Request) {
				writeFrames(w, frameHi)
				pings := time.NewTicker(100 * time.Millisecond) // a slow stream: a ping every 100 ms
				defer pings.Stop()
				for range 12 { // 1.2s in all: longer than the idle timeout
					select {
					case <-pings.C:
					case <-r.Context().Done():
						return
					}
					fmt.Fprint(w, ": ping\n\n")
					w.(http.Flusher).Flush()
				}
				writeFrames(w, frameDone)
			})
			p := newTestHTTP(t, url, func(o *HTTPOptions) { o.IdleTimeout = time.Second; o.Client = client })
			if got := describe(collect(t, p.Stream(context.Background(), testRequest))); got != "text:hi done" {
				t.Errorf("events %s", got)
			}
		})
	})
}

func TestHTTPConsumerBreakClosesBody(t *testing.T) {
	url, gone := hangingServer(t, frameHi, frameHi)
	p := newTestHTTP(t, url, nil)
	n := 0
	for range p.Stream(context.Background(), testRequest) {
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d events", n)
	}
	waitGone(t, gone)
}

func TestHTTPDoneClosesBodyAtOnce(t *testing.T) {
	// The server would keep the connection open after the finish; the
	// client must not wait for it to end.
	url, gone := hangingServer(t, frameHi, frameDone)
	p := newTestHTTP(t, url, nil)
	start := time.Now()
	if got := describe(collect(t, p.Stream(context.Background(), testRequest))); got != "text:hi done" {
		t.Fatalf("events %s", got)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("done came after %v", took)
	}
	waitGone(t, gone)
}

func TestHTTPLeavesNoGoroutines(t *testing.T) {
	transport := &http.Transport{}
	client := &http.Client{Transport: transport}
	okURL, _ := hangingServer(t, frameHi, frameDone)
	hangURL, _ := hangingServer(t, frameHi)
	before := runtime.NumGoroutine()

	for range 5 {
		p := newTestHTTP(t, okURL, func(o *HTTPOptions) { o.Client = client })
		collect(t, p.Stream(context.Background(), testRequest))

		idle := newTestHTTP(t, hangURL, func(o *HTTPOptions) { o.Client = client; o.IdleTimeout = 30 * time.Millisecond })
		collect(t, idle.Stream(context.Background(), testRequest))

		ctx, cancel := context.WithCancel(context.Background())
		hang := newTestHTTP(t, hangURL, func(o *HTTPOptions) { o.Client = client })
		for range hang.Stream(ctx, testRequest) {
			cancel()
		}
		cancel()
		for range hang.Stream(context.Background(), testRequest) {
			break
		}
	}
	transport.CloseIdleConnections()

	// net/http's connection goroutines end on their own after
	// CloseIdleConnections and tell no one: the count is polled.
	await.Polled(3*time.Second, func() bool { return runtime.NumGoroutine() <= before })
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", before, after, buf[:runtime.Stack(buf, true)])
	}
}

func TestHTTPNeverLogsTheKey(t *testing.T) {
	srv, _ := countingServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			http.Error(w, "key "+testKey+" is rate limited", http.StatusTooManyRequests)
			return
		}
		writeFrames(w, frameDone)
	})
	core, logs := observer.New(zapcore.DebugLevel)
	var sl sleepLog
	p := newTestHTTP(t, srv.URL+"/?"+testKey, func(o *HTTPOptions) { o.Logger = zap.New(core); o.Sleep = sl.sleep })
	collect(t, p.Stream(context.Background(), testRequest))
	if logs.Len() < 2 {
		t.Fatalf("%d log entries; want the attempts and the retry", logs.Len())
	}
	retried := false
	for _, e := range logs.All() {
		line := fmt.Sprint(e.Message, e.ContextMap())
		retried = retried || strings.Contains(line, "retrying")
		if strings.Contains(line, testKey) {
			t.Errorf("the key leaked into the log: %s", line)
		}
	}
	if !retried {
		t.Error("the retry was not logged")
	}
}
