package provider

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789"

const (
	frameHi   = `{"t":"text","v":"hi"}`
	frameDone = `{"t":"done"}`
)

// writeFrames sends data frames and flushes them to the client.
func writeFrames(w http.ResponseWriter, frames ...string) {
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/event-stream")
	}
	for _, f := range frames {
		fmt.Fprintf(w, "data: %s\n\n", f)
	}
	w.(http.Flusher).Flush()
}

// sleepLog replaces the retry sleep: it records the requested delays and
// returns at once.
type sleepLog struct {
	mu     sync.Mutex
	delays []time.Duration
}

func (s *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.delays = append(s.delays, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleepLog) get() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.delays...)
}

// countingServer counts requests and serves each with handle(n, w, r),
// n counting from 1.
func countingServer(t *testing.T, handle func(n int, w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handle(int(hits.Add(1)), w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func newTestHTTP(t *testing.T, baseURL string, edit func(*HTTPOptions)) *HTTPProvider {
	t.Helper()
	o := HTTPOptions{Dialect: testDialect{}, BaseURL: baseURL, APIKey: testKey}
	if edit != nil {
		edit(&o)
	}
	p, err := NewHTTP(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// collect runs a stream to its end and checks that exactly one terminal
// event came, as the last one.
func collect(t *testing.T, seq iter.Seq[Event]) []Event {
	t.Helper()
	var events []Event
	for e := range seq {
		events = append(events, e)
	}
	terminals := 0
	for _, e := range events {
		if e.Type == EventDone || e.Type == EventFailure {
			terminals++
		}
	}
	if terminals != 1 || len(events) == 0 || (events[len(events)-1].Type != EventDone && events[len(events)-1].Type != EventFailure) {
		t.Fatalf("want exactly one terminal event, last; got %s", describe(events))
	}
	return events
}

// describe renders events compactly: "text:hi done" or "failure:<text>".
func describe(events []Event) string {
	parts := make([]string, len(events))
	for i, e := range events {
		switch e.Type {
		case EventFailure:
			parts[i] = "failure:" + e.Err.Error()
		case EventDone:
			parts[i] = "done"
		default:
			parts[i] = e.Type.String() + ":" + e.Text
		}
	}
	return strings.Join(parts, " ")
}

var testRequest = Request{Model: "m", Messages: []Message{{Role: RoleUser, Text: "hello"}}}

func TestHTTPStreamSendsRequestAndYieldsEvents(t *testing.T) {
	srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		body := make([]byte, 100)
		n, _ := r.Body.Read(body)
		checks := map[string][2]string{
			"method":       {r.Method, http.MethodPost},
			"path":         {r.URL.Path, "/base/v1/test"},
			"content-type": {r.Header.Get("Content-Type"), "application/json"},
			"accept":       {r.Header.Get("Accept"), "text/event-stream"},
			"auth":         {r.Header.Get("Authorization"), "Bearer " + testKey},
			"body":         {string(body[:n]), `{"messages":1,"model":"m"}`},
		}
		for name, c := range checks {
			if c[0] != c[1] {
				t.Errorf("%s: %q, want %q", name, c[0], c[1])
			}
		}
		writeFrames(w, frameHi, `{"t":"text","v":" there"}`, frameDone)
	})
	p := newTestHTTP(t, srv.URL+"/base/", nil)
	got := describe(collect(t, p.Stream(context.Background(), testRequest)))
	if got != "text:hi text: there done" {
		t.Errorf("events %q", got)
	}
}

func TestHTTPFaults(t *testing.T) {
	tests := []struct {
		name     string
		handle   func(n int, w http.ResponseWriter, r *http.Request)
		want     string // every event, the failure's text included
		attempts int32
		delays   string // the retry delays asked for; "backoff" checks the ranges
	}{
		{
			name: "client error is not retried",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, `{"error": {"message":   "bad request"}}`, http.StatusBadRequest)
			},
			want:     `failure:model API answered 400 Bad Request: {"error": {"message": "bad request"}}`,
			attempts: 1, delays: "[]",
		},
		{
			name: "rate limit retried with Retry-After until attempts run out",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Retry-After", "2")
				http.Error(w, `{"error":"slow down"}`, http.StatusTooManyRequests)
			},
			want:     `failure:model API answered 429 Too Many Requests (after 4 attempts): {"error":"slow down"}`,
			attempts: 4, delays: "[2s 2s 2s]",
		},
		{
			name: "overload retried with exponential backoff",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				http.Error(w, `{"type":"error","error":{"type":"overloaded_error"}}`, 529)
			},
			want:     `failure:model API answered 529 Overloaded (after 4 attempts): {"type":"error","error":{"type":"overloaded_error"}}`,
			attempts: 4, delays: "backoff",
		},
		{
			name: "connection dropped after an event is not retried",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				writeFrames(w, frameHi)
				panic(http.ErrAbortHandler)
			},
			want:     "text:hi failure:model API stream broke: unexpected EOF",
			attempts: 1, delays: "[]",
		},
		{
			name: "connection dropped before any event is retried",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, ": warming up\n\n")
				w.(http.Flusher).Flush()
				panic(http.ErrAbortHandler)
			},
			want:     "failure:model API stream broke: unexpected EOF (after 4 attempts)",
			attempts: 4, delays: "backoff",
		},
		{
			name: "stream ends without a finish",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				writeFrames(w, frameHi)
			},
			want:     "text:hi failure:model API stream ended without a finish: test stream ended before its done frame",
			attempts: 1, delays: "[]",
		},
		{
			name: "error event keeps the server's text and is not retried",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				writeFrames(w, `{"t":"error","v":"Overloaded"}`)
			},
			want:     "failure:model API reported an error: test_error: Overloaded",
			attempts: 1, delays: "[]",
		},
		{
			name: "malformed frame",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				writeFrames(w, frameHi, `{"t":"text","v":`)
			},
			want:     "text:hi failure:model API stream: malformed frame: test frame 2: unexpected end of JSON input",
			attempts: 1, delays: "[]",
		},
		{
			name: "a 200 that is not a stream",
			handle: func(_ int, w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"choices":[{"message":{"content":"hi"}}]}`)
			},
			want:     `failure:model API answered 200 with application/json instead of an event stream: {"choices":[{"message":{"content":"hi"}}]}`,
			attempts: 1, delays: "[]",
		},
		{
			name: "transient 503 then success",
			handle: func(n int, w http.ResponseWriter, _ *http.Request) {
				if n < 3 {
					http.Error(w, "busy", http.StatusServiceUnavailable)
					return
				}
				writeFrames(w, frameHi, frameDone)
			},
			want:     "text:hi done",
			attempts: 3, delays: "backoff",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, hits := countingServer(t, tt.handle)
			var sl sleepLog
			p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.Sleep = sl.sleep })
			got := describe(collect(t, p.Stream(context.Background(), testRequest)))
			if got != tt.want {
				t.Errorf("events:\n got %s\nwant %s", got, tt.want)
			}
			if hits.Load() != tt.attempts {
				t.Errorf("%d requests, want %d", hits.Load(), tt.attempts)
			}
			delays := sl.get()
			if tt.delays != "backoff" {
				if fmt.Sprint(delays) != tt.delays {
					t.Errorf("delays %v, want %s", delays, tt.delays)
				}
				return
			}
			if len(delays) != int(tt.attempts)-1 {
				t.Fatalf("delays %v, want %d", delays, tt.attempts-1)
			}
			for i, d := range delays { // base 1s: equal jitter keeps [2^i/2, 2^i] seconds
				top := time.Second << i
				if d < top/2 || d > top {
					t.Errorf("delay %d is %v, want within [%v, %v]", i+1, d, top/2, top)
				}
			}
		})
	}
}

func TestHTTPTransportErrorIsRetried(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	var sl sleepLog
	p := newTestHTTP(t, "http://"+addr, func(o *HTTPOptions) { o.Sleep = sl.sleep; o.MaxAttempts = 3 })
	events := collect(t, p.Stream(context.Background(), testRequest))
	want := fmt.Sprintf(`model API request failed: Post "http://%s/v1/test": dial tcp %s: connect: connection refused (after 3 attempts)`, addr, addr)
	if got := events[0].Err.Error(); got != want {
		t.Errorf("failure:\n got %s\nwant %s", got, want)
	}
	if len(sl.get()) != 2 {
		t.Errorf("delays %v, want 2", sl.get())
	}
}

func TestHTTPRetryAfterIsHonouredInRealTime(t *testing.T) {
	srv, hits := countingServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "later", http.StatusTooManyRequests)
			return
		}
		writeFrames(w, frameDone)
	})
	p := newTestHTTP(t, srv.URL, nil) // the real sleep
	start := time.Now()
	got := describe(collect(t, p.Stream(context.Background(), testRequest)))
	elapsed := time.Since(start)
	if got != "done" || hits.Load() != 2 {
		t.Fatalf("events %q after %d requests", got, hits.Load())
	}
	if elapsed < time.Second {
		t.Errorf("answered after %v; Retry-After: 1 asks for at least 1s", elapsed)
	}
	t.Logf("2 attempts, Retry-After: 1 honoured: %v", elapsed)
}

func TestHTTPCancelDuringRetryWait(t *testing.T) {
	srv, hits := countingServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "later", http.StatusServiceUnavailable)
	})
	waiting := make(chan time.Duration, 1)
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) {
		o.Sleep = func(ctx context.Context, d time.Duration) error { // the real sleep: 30s unless cancelled
			waiting <- d
			return sleepCtx(ctx, d)
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // owned by this test; ends once it cancelled
		<-waiting // the retry wait has begun
		cancel()
	}()
	start := time.Now()
	events := collect(t, p.Stream(ctx, testRequest))
	if err := events[0].Err; !errors.Is(err, context.Canceled) || err.Error() != "model API request cancelled: context canceled" {
		t.Fatalf("failure %v", err)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second || hits.Load() != 1 {
		t.Errorf("returned after %v and %d requests; want long before the 30s wait, 1 request", elapsed, hits.Load())
	}
}

func TestHTTPErrorBodyIsShortAndScrubbed(t *testing.T) {
	srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "invalid key "+testKey+" "+strings.Repeat("é", 1000), http.StatusUnauthorized)
	})
	p := newTestHTTP(t, srv.URL, nil)
	err := collect(t, p.Stream(context.Background(), testRequest))[0].Err
	var herr *HTTPError
	if !errors.As(err, &herr) {
		t.Fatalf("failure %v is not an *HTTPError", err)
	}
	if herr.Status != 401 || herr.Attempts != 1 || len(herr.Body) > 500 {
		t.Errorf("status %d, attempts %d, body %d bytes", herr.Status, herr.Attempts, len(herr.Body))
	}
	if strings.Contains(err.Error(), testKey) || !strings.HasPrefix(herr.Body, "invalid key [REDACTED] éé") || !strings.HasSuffix(herr.Body, "é…") {
		t.Errorf("body excerpt %q", herr.Body)
	}
}

func TestHTTPRawDump(t *testing.T) {
	srv, _ := countingServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		writeFrames(w, frameHi, frameDone)
	})
	var dump strings.Builder
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.RawDump = &dump })
	collect(t, p.Stream(context.Background(), testRequest))
	want := "[RAW] data: " + frameHi + "\n[RAW] \n[RAW] data: " + frameDone + "\n[RAW] \n"
	if dump.String() != want {
		t.Errorf("raw dump:\n%s\nwant:\n%s", dump.String(), want)
	}
}

func TestNewHTTPRejectsBadOptions(t *testing.T) {
	for _, o := range []HTTPOptions{
		{BaseURL: "http://127.0.0.1"},
		{Dialect: testDialect{}, BaseURL: "127.0.0.1:8080"},
		{Dialect: testDialect{}, BaseURL: "ftp://host"},
	} {
		if _, err := NewHTTP(o); err == nil {
			t.Errorf("NewHTTP(%+v) accepted", o)
		}
	}
}
