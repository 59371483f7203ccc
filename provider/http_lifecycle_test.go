package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
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
		case <-time.After(10 * time.Second):
		}
	})
	return srv.URL, gone
}

func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(2 * time.Second):
		t.Fatal("the server never saw the connection close")
	}
}

func TestHTTPCancelMidStreamIsPrompt(t *testing.T) {
	// A loaded machine can stall any run; a real defect (a Read left
	// blocked until the server gives up) makes every run slow. So: best of 3.
	var tries []time.Duration
	for range 3 {
		took := cancelMidStream(t)
		if took <= 100*time.Millisecond {
			t.Logf("cancel to failure: %v", took)
			return
		}
		tries = append(tries, took)
	}
	t.Errorf("the failure came %v after cancel; want within 100ms", tries)
}

// cancelMidStream cancels after the first event and returns how long the
// failure took to arrive.
func cancelMidStream(t *testing.T) time.Duration {
	url, gone := hangingServer(t, frameHi)
	p := newTestHTTP(t, url, nil)
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
	took := time.Since(cancelledAt)
	if got := describe(events); got != "text:hi failure:model API request cancelled: context canceled" {
		t.Fatalf("events %s", got)
	}
	if !errors.Is(events[1].Err, context.Canceled) {
		t.Errorf("failure %v does not wrap context.Canceled", events[1].Err)
	}
	waitGone(t, gone)
	return took
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
		srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
			writeFrames(w, frameHi)
			for range 12 { // 1.2s in all: longer than the idle timeout
				time.Sleep(100 * time.Millisecond)
				fmt.Fprint(w, ": ping\n\n")
				w.(http.Flusher).Flush()
			}
			writeFrames(w, frameDone)
		})
		lines := &lineTimes{}
		p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.IdleTimeout = time.Second; o.RawDump = lines })
		start := time.Now()
		got := describe(collect(t, p.Stream(context.Background(), testRequest)))
		if got == "text:hi done" {
			return
		}
		// An idle failure is only right if the client really saw a second
		// without a byte, which a starved machine can produce.
		if gap := lines.maxGap(start, time.Now()); gap < 500*time.Millisecond {
			t.Errorf("events %s, yet no gap between lines exceeded %v", got, gap)
		} else {
			t.Skipf("the machine stalled the stream for %v: cannot judge the idle timer", gap)
		}
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

	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
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

// lineTimes records when each raw line reached the client.
type lineTimes struct {
	mu    sync.Mutex
	times []time.Time
}

func (l *lineTimes) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.times = append(l.times, time.Now())
	return len(b), nil
}

// maxGap is the longest time between start, the lines, and end.
func (l *lineTimes) maxGap(start, end time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var gap time.Duration
	prev := start
	for _, t := range append(l.times, end) {
		gap = max(gap, t.Sub(prev))
		prev = t
	}
	return gap
}
