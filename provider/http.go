package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"

	"go.uber.org/zap"
)

// HTTPOptions configures an HTTPProvider. Zero values take the defaults
// noted beside each field.
type HTTPOptions struct {
	Dialect Dialect
	BaseURL string // the dialect's Path is appended (a trailing slash is trimmed)
	APIKey  string // empty: no credential header (a local server)
	Client  *http.Client
	// MaxAttempts bounds requests per Stream call, retries included (default 4).
	MaxAttempts int
	// IdleTimeout fails a stream when no byte arrived for this long, waiting
	// for the response headers included (default 5m).
	IdleTimeout time.Duration
	// BackoffBase and BackoffMax shape the exponential retry delay when the
	// server names none (defaults 1s and 30s).
	BackoffBase, BackoffMax time.Duration
	// Sleep waits before a retry; tests inject it. Default: a timer that
	// returns early with ctx.Err() when ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Recorder, when set, records every exchange.
	Recorder *Recorder
	// RawDump, when set, receives each raw SSE line as "[RAW] <line>\n".
	RawDump io.Writer
	// Redact, when set, rewrites every recorded record and dumped line
	// before it is written: the front end's scrubbing of the secrets it
	// holds (not only this connection's key, which is always scrubbed).
	Redact func(string) string
	Logger *zap.Logger
}

// HTTPProvider streams answers from a model API over HTTP: retries, idle
// timeout, cancellation, recording. The Dialect only translates.
type HTTPProvider struct {
	o       HTTPOptions
	url     string
	logURL  string // without any userinfo
	dialect string
	log     *zap.Logger
}

// NewHTTP checks o and fills in its defaults.
func NewHTTP(o HTTPOptions) (*HTTPProvider, error) {
	if o.Dialect == nil {
		return nil, errors.New("model API: no dialect")
	}
	base := strings.TrimRight(o.BaseURL, "/")
	u, err := url.Parse(base + o.Dialect.Path())
	if err != nil {
		return nil, fmt.Errorf("model API base URL %q: %w", o.BaseURL, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("model API base URL %q: want http(s)://host[/path]", o.BaseURL)
	}
	if o.Client == nil {
		o.Client = http.DefaultClient
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 4
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 5 * time.Minute
	}
	if o.BackoffBase <= 0 {
		o.BackoffBase = time.Second
	}
	if o.BackoffMax <= 0 {
		o.BackoffMax = 30 * time.Second
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	return &HTTPProvider{o: o, url: u.String(), logURL: scrub(u.Redacted(), o.APIKey), dialect: o.Dialect.Name(), log: o.Logger}, nil
}

// Stream sends req and yields the answer's events, ending with exactly one
// EventDone or EventFailure unless the consumer stops early.
func (p *HTTPProvider) Stream(ctx context.Context, req Request) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		if last, ok := p.stream(ctx, req, yield); ok {
			yield(last)
		}
	}
}

// stream runs the attempts and returns the terminal event, or false when
// the consumer stopped iterating.
func (p *HTTPProvider) stream(ctx context.Context, req Request, yield func(Event) bool) (Event, bool) {
	body, err := newRequestBody(p.o.Dialect, req, p.o.Recorder != nil)
	if err != nil {
		return failure(fmt.Errorf("encoding the %s request: %w", p.dialect, err)), true
	}
	x := p.o.Recorder.begin(p.dialect, p.o.Dialect.Path(), body.whole, p.o.APIKey, p.o.Redact)
	for attempt := 1; ; attempt++ {
		out := p.attempt(ctx, body, attempt, x, yield)
		if out.stopped {
			x.end(attempt, errStopped)
			return Event{}, false
		}
		if out.err == nil {
			x.end(attempt, nil)
			p.log.Debug("model API answer complete", zap.String("dialect", p.dialect), zap.Int("attempt", attempt))
			return out.done, true
		}
		final := out.err
		if ctx.Err() == nil && out.retryable && attempt < p.o.MaxAttempts {
			delay := out.delay
			if !out.hasDelay {
				delay = backoff(attempt, p.o.BackoffBase, p.o.BackoffMax)
			}
			p.log.Info("retrying model API request", zap.String("dialect", p.dialect),
				zap.Int("attempt", attempt), zap.Duration("delay", delay), p.errField(out.err))
			x.retry(attempt, delay, out.err)
			notifyRetry(ctx, Retry{Attempt: attempt + 1, Max: p.o.MaxAttempts, Delay: delay, Err: out.err})
			if err := p.o.Sleep(ctx, delay); err == nil {
				continue
			} else if ctx.Err() == nil {
				final = fmt.Errorf("waiting to retry: %w", err)
			}
		}
		if ctx.Err() != nil {
			final = fmt.Errorf("model API request cancelled: %w", ctx.Err())
		} else if _, isHTTP := out.err.(*HTTPError); !isHTTP {
			final = withAttempts(final, attempt)
		}
		x.end(attempt, final)
		p.log.Debug("model API request failed", zap.String("dialect", p.dialect), zap.Int("attempt", attempt), p.errField(final))
		return failure(final), true
	}
}

// errField logs an error with the key scrubbed: a transport error quotes
// the URL, and someone may have put the key there.
func (p *HTTPProvider) errField(err error) zap.Field {
	return zap.String("error", scrub(err.Error(), p.o.APIKey))
}

func failure(err error) Event { return Event{Type: EventFailure, Err: err} }

// attemptOutcome is the result of one request.
type attemptOutcome struct {
	done      Event // EventDone, when err is nil
	err       error
	retryable bool
	delay     time.Duration // the server's Retry-After, when hasDelay
	hasDelay  bool
	stopped   bool // the consumer stopped iterating
}

// attempt makes one request. Its context is cancelled by an idle watchdog
// (reset by every byte read) and, like the parent, closes the body at once
// so that a blocked Read returns.
func (p *HTTPProvider) attempt(ctx context.Context, body *requestBody, attempt int, x *exchange, yield func(Event) bool) attemptOutcome {
	defer body.release()
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	idle := &IdleTimeoutError{Idle: p.o.IdleTimeout}
	watchdog := time.AfterFunc(p.o.IdleTimeout, func() { cancel(idle) })
	defer watchdog.Stop()

	hreq, err := body.request(actx, p.url)
	if err != nil {
		return attemptOutcome{err: fmt.Errorf("building model API request: %w", err)}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	p.o.Dialect.SetHeaders(hreq.Header, p.o.APIKey)
	p.log.Debug("model API request", zap.String("dialect", p.dialect), zap.String("url", p.logURL), zap.Int("attempt", attempt))

	resp, err := p.o.Client.Do(hreq)
	if err != nil {
		if errors.Is(context.Cause(actx), idle) {
			return attemptOutcome{err: idle, retryable: true}
		}
		return attemptOutcome{err: fmt.Errorf("model API request failed: %w", err), retryable: true}
	}
	defer resp.Body.Close()
	stopClosing := context.AfterFunc(actx, func() { resp.Body.Close() })
	defer stopClosing()
	watchdog.Reset(p.o.IdleTimeout)
	if sa, ok := p.o.Dialect.(ServerAware); ok {
		sa.ServerAnswered(resp.Header)
	}

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		herr := &HTTPError{Status: resp.StatusCode, Body: excerpt(raw, p.o.APIKey), Attempts: attempt}
		x.response(attempt, resp.StatusCode, herr.Body)
		delay, ok := retryAfter(resp.Header, time.Now())
		return attemptOutcome{err: herr, retryable: retryableStatus(resp.StatusCode), delay: delay, hasDelay: ok}
	}
	if ct := resp.Header.Get("Content-Type"); notEventStream(ct) {
		// A proxy's HTML page or a non-streaming JSON answer: say so rather
		// than "ended without a finish".
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		x.response(attempt, resp.StatusCode, excerpt(raw, p.o.APIKey))
		return attemptOutcome{err: fmt.Errorf("model API answered %d with %s instead of an event stream: %s",
			resp.StatusCode, ct, excerpt(raw, p.o.APIKey))}
	}
	x.response(attempt, resp.StatusCode, "")

	yielded := 0
	var done Event
	err = decodeSSE(&idleResetReader{r: resp.Body, t: watchdog, d: p.o.IdleTimeout},
		p.o.Dialect.NewDecoder(), p.lineSink(x), func(e Event) bool {
			if e.Type == EventDone { // held back: yielded after the body is closed
				done = e
				return true
			}
			yielded++
			return yield(e)
		})
	switch {
	case err == nil:
		drain(resp.Body, cancel)
		return attemptOutcome{done: done}
	case errors.Is(err, errStopped):
		return attemptOutcome{stopped: true}
	case ctx.Err() != nil:
		return attemptOutcome{err: ctx.Err()}
	case errors.Is(context.Cause(actx), idle):
		return attemptOutcome{err: idle, retryable: yielded == 0}
	case errors.Is(err, ErrNoFinish):
		return attemptOutcome{err: err, retryable: yielded == 0}
	case errors.Is(err, ErrMalformedFrame):
		return attemptOutcome{err: fmt.Errorf("model API stream: %w", err)}
	}
	var rerr *readError
	if errors.As(err, &rerr) {
		return attemptOutcome{err: fmt.Errorf("model API stream broke: %w", rerr.err), retryable: yielded == 0}
	}
	return attemptOutcome{err: err} // the server's own error event: its text as it is
}

// What is read of a body after its stream ended normally, before it is
// closed: the chunked encoding's last chunk, a trailing "[DONE]" or a
// blank line. Read to its end, the body gives its connection back to the
// client's pool for the next call; closed before, the connection is torn
// down and the next call pays a new handshake. A server that sends more,
// or holds the stream open past its final event, loses its connection
// rather than delaying the answer by more than drainWait.
const (
	drainLimit = 64 << 10
	drainWait  = 100 * time.Millisecond
)

// errDrainWait ends a drain that took longer than drainWait.
var errDrainWait = errors.New("the body did not end after the stream's final event")

// drain reads what is left of body, within drainLimit and drainWait.
// cancel is the attempt's: cancelling it closes the body, which ends a
// Read that waits.
func drain(body io.Reader, cancel context.CancelCauseFunc) {
	t := time.AfterFunc(drainWait, func() { cancel(errDrainWait) })
	defer t.Stop()
	_, _ = io.Copy(io.Discard, io.LimitReader(body, drainLimit))
}

// notEventStream recognises the answers that are surely not SSE. Other or
// missing types are given the benefit of the doubt: some local servers
// label their streams loosely.
func notEventStream(contentType string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(contentType), ";")
	switch strings.TrimSpace(mt) {
	case "application/json", "text/html":
		return true
	}
	return false
}

// lineSink returns the raw-line observer for recording and --dump-raw.
func (p *HTTPProvider) lineSink(x *exchange) func([]byte) {
	dump := p.o.RawDump
	if x == nil && dump == nil {
		return nil
	}
	return func(line []byte) {
		x.line(line)
		if dump != nil {
			out := scrub("[RAW] "+string(line)+"\n", p.o.APIKey) // a model may echo anything
			if p.o.Redact != nil {
				out = p.o.Redact(out)
			}
			_, _ = io.WriteString(dump, out) // a broken debug sink must not break the answer
		}
	}
}

// idleResetReader re-arms the idle watchdog whenever bytes arrive.
type idleResetReader struct {
	r io.Reader
	t *time.Timer
	d time.Duration
}

func (r *idleResetReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.t.Reset(r.d)
	}
	return n, err
}
