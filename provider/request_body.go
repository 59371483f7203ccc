package provider

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// BodyWriter is a Dialect that can write its request body to a writer
// rather than return it: a body holding a long history is then never
// copied whole behind the encoder's own buffer. The bytes written are the
// bytes Encode returns, a trailing newline aside.
type BodyWriter interface {
	WriteBody(w io.Writer, req Request) error
}

// requestBody is one model call's request body, for all its attempts.
// Written by a BodyWriter, it is encoded once to learn its length (the
// request is not chunked: some servers refuse that) and again into each
// attempt's connection; otherwise it is held whole.
type requestBody struct {
	whole  []byte // nil: written by writer
	writer BodyWriter
	req    Request
	size   int64

	mu      sync.Mutex
	readers []*io.PipeReader // handed out by open, not yet released
	writers sync.WaitGroup   // the goroutines writing them
}

// newRequestBody encodes req; whole asks for the bytes themselves (a
// recording keeps them).
func newRequestBody(d Dialect, req Request, whole bool) (*requestBody, error) {
	bw, ok := d.(BodyWriter)
	if whole || !ok {
		b, err := d.Encode(req)
		if err != nil {
			return nil, err
		}
		return &requestBody{whole: b, size: int64(len(b))}, nil
	}
	var n byteCounter
	if err := bw.WriteBody(withoutFinalNewline{&n}, req); err != nil {
		return nil, err
	}
	return &requestBody{writer: bw, req: req, size: int64(n)}, nil
}

// request is one attempt's POST of the body.
func (b *requestBody) request(ctx context.Context, url string) (*http.Request, error) {
	if b.writer == nil {
		return http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b.whole))
	}
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, url, b.open())
	if err != nil {
		return nil, err
	}
	// A body written as it is sent has a length only because it was
	// counted; GetBody lets the transport send it again (a redirect, a
	// connection that broke before the request was written).
	r.ContentLength = b.size
	r.GetBody = func() (io.ReadCloser, error) { return b.open(), nil }
	return r, nil
}

// open returns a reader of the body, written as it is read; release
// closes it.
func (b *requestBody) open() io.ReadCloser {
	r, w := io.Pipe()
	b.mu.Lock()
	b.readers = append(b.readers, r)
	b.mu.Unlock()
	b.writers.Add(1)
	go func() {
		defer b.writers.Done()
		var n byteCounter
		err := b.writer.WriteBody(withoutFinalNewline{io.MultiWriter(&n, w)}, b.req)
		if err == nil && int64(n) != b.size {
			// The same request encodes to the same bytes; a different
			// length would make the server wait or cut the body.
			err = fmt.Errorf("request body: encoded to %d bytes, then to %d", b.size, n)
		}
		w.CloseWithError(err) // nil: the reader sees io.EOF
	}()
	return r
}

// release closes the readers open handed out and returns once their
// writers stopped: an attempt's body is not written past its attempt.
func (b *requestBody) release() {
	b.mu.Lock()
	readers := b.readers
	b.readers = nil
	b.mu.Unlock()
	for _, r := range readers {
		_ = r.Close()
	}
	b.writers.Wait()
}

// byteCounter counts what is written to it.
type byteCounter int64

func (c *byteCounter) Write(p []byte) (int, error) {
	*c += byteCounter(len(p))
	return len(p), nil
}

// withoutFinalNewline drops the newline json.Encoder ends its one write
// with: the body is the value alone, as Encode returns it.
type withoutFinalNewline struct{ w io.Writer }

func (t withoutFinalNewline) Write(p []byte) (int, error) {
	if _, err := t.w.Write(bytes.TrimSuffix(p, []byte("\n"))); err != nil {
		return 0, err
	}
	return len(p), nil
}
