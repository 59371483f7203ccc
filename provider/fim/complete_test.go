package fim_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/fim"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// dialects are the names under test and the fake's name for each.
var dialects = []struct{ name, fake string }{
	{fim.DialectDeepSeek, providertest.FIMDeepSeek},
	{fim.DialectLlamaCpp, providertest.FIMLlamaCpp},
	{fim.DialectOllama, providertest.FIMOllama},
	{fim.DialectMistral, providertest.FIMMistral},
	{fim.DialectOpenAI, providertest.FIMOpenAI},
}

func newClient(t *testing.T, srv *providertest.Server, dialect string, mod ...func(*fim.Config)) fim.Client {
	t.Helper()
	cfg := fim.Config{
		Dialect: dialect, BaseURL: srv.FIMBaseURL(), Model: "coder", HTTPClient: srv.Client(),
		BackoffBase: time.Millisecond, BackoffMax: time.Millisecond,
	}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := fim.New(cfg)
	if err != nil {
		t.Fatalf("fim.New: %v", err)
	}
	return c
}

// wait waits for ch, failing the test when it does not come while the
// test's context lives (a hung stream fails instead of hanging the run).
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	select {
	case <-ch:
	case <-ctx.Done():
		t.Fatalf("%s never happened", what)
	}
}

func TestCompleteStreamsEachDialect(t *testing.T) {
	chunks := []string{"if err", " != nil {\n", "\treturn err\n", "}"}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{FIM: &providertest.FIMTurn{Chunks: chunks, PromptTokens: 31, CompletionTokens: 9}},
			}, providertest.WithSeed(1))
			c := newClient(t, srv, d.name)
			var got []string
			res, err := c.Complete(t.Context(), fim.Request{
				Prefix: "x, err := f()\n", Suffix: "\nreturn x\n", MaxTokens: 64,
				Stop: []string{"\n\n"}, Temperature: 0.2,
			}, func(delta string) bool { got = append(got, delta); return true })
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if strings.Join(got, "|") != strings.Join(chunks, "|") {
				t.Errorf("deltas %q, want %q", got, chunks)
			}
			want := fim.Result{Text: strings.Join(chunks, ""), StopReason: fim.StopDone, PromptTokens: 31, CompletionTokens: 9}
			if res != want {
				t.Errorf("result %+v, want %+v", res, want)
			}
			reqs := srv.FIMRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d FIM requests, want 1: %+v", len(reqs), srv.Requests())
			}
			r := reqs[0]
			if r.Dialect != d.fake || r.Prefix != "x, err := f()\n" || r.Suffix != "\nreturn x\n" || r.MaxTokens != 64 {
				t.Errorf("request as sent: %+v", r)
			}
			if len(r.Stop) != 1 || r.Stop[0] != "\n\n" || r.Temperature == nil || *r.Temperature != 0.2 {
				t.Errorf("stop %q temperature %v", r.Stop, r.Temperature)
			}
			wait(t, r.Ended(), "the end of the answer")
			if !r.ClosedAt().IsZero() {
				t.Errorf("a complete answer was seen as closed by the client at %v", r.ClosedAt())
			}
		})
	}
}

func TestCompleteLengthStop(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			srv := providertest.NewServer(t, providertest.Script{
				{FIM: &providertest.FIMTurn{Text: "for i := range n {", Stop: providertest.FIMLength}},
			})
			res, err := newClient(t, srv, d.name).Complete(t.Context(), fim.Request{Prefix: "p", Temperature: -1}, nil)
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if res.StopReason != fim.StopLength || res.Text != "for i := range n {" {
				t.Errorf("result %+v, want the text and %q", res, fim.StopLength)
			}
			if r := srv.FIMRequests()[0]; r.Temperature != nil {
				t.Errorf("temperature %v sent for Temperature < 0", *r.Temperature)
			}
		})
	}
}

// stalled is a turn that sends its first delta and then waits for the
// client to go: what a slow model looks like to a cancelled completion.
func stalled() providertest.Script {
	return providertest.Script{{FIM: &providertest.FIMTurn{
		Chunks: []string{"first", "never"}, Stall: providertest.Forever, StallAfter: 1,
	}}}
}

func TestOnTextFalseClosesTheStream(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			srv := providertest.NewServer(t, stalled())
			res, err := newClient(t, srv, d.name).Complete(t.Context(), fim.Request{Prefix: "p"},
				func(string) bool { return false })
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if res.StopReason != fim.StopCancelled || res.Text != "first" {
				t.Errorf("result %+v, want the first delta and %q", res, fim.StopCancelled)
			}
			r := srv.FIMRequests()[0]
			wait(t, r.Closed(), "the server seeing the stream closed")
			if r.ClosedAt().Before(r.Arrived) {
				t.Errorf("closed at %v, before the request arrived at %v", r.ClosedAt(), r.Arrived)
			}
		})
	}
}

func TestCancelClosesTheStream(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			srv := providertest.NewServer(t, stalled())
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			res, err := newClient(t, srv, d.name).Complete(ctx, fim.Request{Prefix: "p"},
				func(string) bool { cancel(); return true })
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if res.StopReason != fim.StopCancelled || res.Text != "first" {
				t.Errorf("result %+v, want the first delta and %q", res, fim.StopCancelled)
			}
			wait(t, srv.FIMRequests()[0].Closed(), "the server seeing the request closed")
		})
	}
}

func TestCancelBeforeTheFirstDelta(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{
		Text: "late", Stall: providertest.Forever,
	}}})
	ctx, cancel := context.WithCancel(t.Context())
	c := newClient(t, srv, fim.DialectDeepSeek)
	done := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, fim.Request{Prefix: "p"}, nil)
		done <- err
	}()
	if err := srv.WaitRequests(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	wait(t, srv.FIMRequests()[0].Closed(), "the server seeing the request closed")
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests after a cancel, want 1 (no retry)", n)
	}
}

func TestErrors(t *testing.T) {
	fault := func(f providertest.Fault) providertest.Turn { return providertest.Turn{Fault: &f} }
	ok := providertest.Turn{FIM: &providertest.FIMTurn{Text: "ok"}}
	tests := []struct {
		name     string
		dialect  string
		script   providertest.Script
		key      string // the client's; the server wants "right"
		status   int    // the HTTPError's; 0: success
		message  string // in the error's text
		requests int
	}{
		{"401 is not retried", fim.DialectDeepSeek, providertest.Script{ok}, "wrong", 401, "Authentication Fails", 1},
		{"429 is retried", fim.DialectMistral, providertest.Script{fault(providertest.Fault{Status: 429, RetryAfter: "0"}), ok}, "right", 0, "", 2},
		{"5xx until the attempts run out", fim.DialectOpenAI, providertest.Script{fault(providertest.Fault{Status: 503}), fault(providertest.Fault{Status: 500})}, "right", 500, "Internal Server Error", 2},
		{"400 message surfaced", fim.DialectDeepSeek, providertest.Script{fault(providertest.Fault{
			Status: 400, Body: `{"error":{"message":"Prompt is too long","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
		})}, "right", 400, "refused: Prompt is too long", 1},
		{"ollama's string error", fim.DialectOllama, providertest.Script{fault(providertest.Fault{
			Status: 400, Body: `{"error":"model \"coder\" does not support insert"}`,
		})}, "right", 400, `refused: model "coder" does not support insert`, 1},
		{"a drop after the first byte is not retried", fim.DialectLlamaCpp, providertest.Script{
			{FIM: &providertest.FIMTurn{Text: "abcdef", Chunks: []string{"ab", "cd", "ef"}}, Fault: &providertest.Fault{DropAfterFrames: 1}}, ok,
		}, "right", 0, "stream broke", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := providertest.NewServer(t, tc.script, providertest.WithAPIKey("right"))
			c := newClient(t, srv, tc.dialect, func(cfg *fim.Config) {
				cfg.APIKeyEnv = "FIM_TEST_KEY"
				cfg.Getenv = func(string) string { return tc.key }
			})
			res, err := c.Complete(t.Context(), fim.Request{Prefix: "p"}, nil)
			if n := len(srv.Requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if tc.message == "" {
				if err != nil || res.Text != "ok" {
					t.Fatalf("Complete: %+v, %v; want ok", res, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("error %v, want one saying %q", err, tc.message)
			}
			if strings.Contains(err.Error(), "right") || strings.Contains(err.Error(), "wrong") {
				t.Errorf("the error quotes a key: %v", err)
			}
			var herr *provider.HTTPError
			if got := errors.As(err, &herr); got != (tc.status != 0) || (got && herr.Status != tc.status) {
				t.Errorf("error %v (%T): HTTPError %v, want status %d", err, err, herr, tc.status)
			}
		})
	}
}
