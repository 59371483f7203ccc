package providertest

import (
	"bytes"
	"context"
	"net/http"
	"testing"
	"time"
)

// TestFIMClosedBeforeEnded: a client that abandons a stalled FIM stream is
// always seen going, however the handler's wake-up races the context's
// cancellation reaching the Closed watch. Context closes Done before it runs
// the AfterFuncs, so a stall woken by Done returns first, and the watch's
// stop then reports true: the race is narrow, hence the repeats.
func TestFIMClosedBeforeEnded(t *testing.T) {
	const n = 200
	script := make(Script, n)
	for i := range script {
		script[i] = Turn{FIM: &FIMTurn{Text: "never", Stall: Forever}}
	}
	srv := NewServer(t, script, WithSeed(1))
	client := srv.Client()
	body := []byte(`{"model":"deepseek-coder","prompt":"func f() {","suffix":"}","stream":true}`)
	for i := range n {
		ctx, cancel := context.WithCancel(t.Context())
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.FIMBaseURL()+"/beta/completions", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d: status %d", i, resp.StatusCode)
		}
		cancel() // the headers are in; the stream stalls: abandon it
		_ = resp.Body.Close()
		got := srv.FIMRequests()
		if len(got) != i+1 {
			t.Fatalf("%d FIM requests after %d sent", len(got), i+1)
		}
		r := got[i]
		waitCh(t, r.Ended(), "the server ending request %d", i)
		select {
		case <-r.Closed():
		default:
			t.Fatalf("request %d ended without being marked Closed, though its client went away", i)
		}
	}
}

// waitCh waits for ch, failing the test when it does not come in 10s (a
// hung handler fails instead of hanging the run).
func waitCh(t *testing.T, ch <-chan struct{}, format string, args ...any) {
	t.Helper()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case <-ch:
	case <-timer.C:
		t.Fatalf(format+": never happened", args...)
	}
}
