package fim

import (
	"io"
	"net/http"
)

// Ollama streams NDJSON (one JSON object a line), not SSE. Rather than a
// second streaming machine, the response body is reframed on the fly: each
// line becomes an SSE "data:" frame, so package provider's reader, retries,
// idle timeout and cancellation serve Ollama as they serve the rest.

// withNDJSON returns a copy of hc whose responses are reframed.
func withNDJSON(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = ndjsonTransport{base: base}
	return &c
}

type ndjsonTransport struct{ base http.RoundTripper }

func (t ndjsonTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp, err // an error body is read as it is
	}
	resp.Body = &ndjsonReader{body: resp.Body, atLineStart: true}
	resp.ContentLength = -1
	return resp, nil
}

// ndjsonReader turns "obj\n" into "data: obj\n\n" without buffering a line:
// a frame's bytes pass through as soon as they arrive.
type ndjsonReader struct {
	body        io.ReadCloser
	in          [4 << 10]byte
	pending     []byte // reframed bytes not yet returned
	atLineStart bool
}

var (
	dataPrefix = []byte("data: ")
	frameEnd   = []byte("\n\n")
)

func (r *ndjsonReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		n, err := r.body.Read(r.in[:])
		r.reframe(r.in[:n])
		if len(r.pending) > 0 {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// reframe appends chunk, reframed, to pending. Blank lines and CRs are
// dropped: NDJSON has no empty records.
func (r *ndjsonReader) reframe(chunk []byte) {
	out := r.pending[:0]
	for _, c := range chunk {
		switch {
		case c == '\r':
		case c == '\n':
			if !r.atLineStart {
				out = append(out, frameEnd...)
				r.atLineStart = true
			}
		default:
			if r.atLineStart {
				out = append(out, dataPrefix...)
				r.atLineStart = false
			}
			out = append(out, c)
		}
	}
	r.pending = out
}

func (r *ndjsonReader) Close() error { return r.body.Close() }
