package provider

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// bodyWriterDialect is testDialect writing its body, the history's texts
// included, through a json.Encoder as the real dialects do.
type bodyWriterDialect struct{ testDialect }

func (d bodyWriterDialect) Encode(req Request) ([]byte, error) {
	var b bytes.Buffer
	if err := d.WriteBody(&b, req); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func (bodyWriterDialect) WriteBody(w io.Writer, req Request) error {
	return json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "messages": req.Messages})
}

// A body written as it is sent has a Content-Length (some servers refuse a
// chunked request), the bytes Encode makes, and is written again, whole,
// for a retry.
func TestHTTPWrittenBodyIsCountedAndRewrittenForARetry(t *testing.T) {
	req := Request{Model: "m", Messages: []Message{{Role: RoleUser, Text: strings.Repeat("a long history <&> é ", 20_000)}}}
	want, err := bodyWriterDialect{}.Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []*http.Request
	var bodies [][]byte
	srv, hits := countingServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("request %d: reading the body: %v", n, err)
		}
		mu.Lock()
		seen, bodies = append(seen, r), append(bodies, b)
		mu.Unlock()
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		writeFrames(w, frameHi, frameDone)
	})
	sleeps := &sleepLog{}
	p := newTestHTTP(t, srv.URL, func(o *HTTPOptions) { o.Dialect = bodyWriterDialect{}; o.Sleep = sleeps.sleep })
	if got := describe(collect(t, p.Stream(t.Context(), req))); got != "text:hi done" || hits.Load() != 2 {
		t.Fatalf("events %q after %d requests, want text:hi done after 2", got, hits.Load())
	}
	for i, r := range seen {
		if r.ContentLength != int64(len(want)) || len(r.TransferEncoding) != 0 {
			t.Errorf("request %d: Content-Length %d, transfer encoding %v; want %d and none", i+1, r.ContentLength, r.TransferEncoding, len(want))
		}
		if !bytes.Equal(bodies[i], want) {
			t.Errorf("request %d: the body differs from Encode's (%d bytes, want %d)", i+1, len(bodies[i]), len(want))
		}
	}
}
