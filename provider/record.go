package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Recorder writes every model exchange as JSON lines, for debugging and for
// Replay. Per exchange (seq numbers its request):
//
//	{"kind":"request","seq":1,"dialect":"openai","path":"/chat/completions","body":{...}}
//	{"kind":"response","seq":1,"attempt":1,"ms":12,"status":429,"body":"excerpt"}
//	{"kind":"retry","seq":1,"attempt":1,"ms":12,"delay_ms":1000,"error":"..."}
//	{"kind":"response","seq":1,"attempt":2,"ms":1020,"status":200}
//	{"kind":"line","seq":1,"ms":1100,"line":"data: {...}"}
//	{"kind":"end","seq":1,"ms":1200,"attempts":2,"error":"..."}
//
// Lines of a failed attempt precede its "retry" record; the lines that
// follow the last "response" are the answer. No header is ever written, and
// the API key is scrubbed from every record as a second line of defence,
// and HTTPOptions.Redact, when set, rewrites each record before it is
// written (the front end's other secrets).
// A Recorder is safe for concurrent exchanges.
type Recorder struct {
	mu     sync.Mutex
	w      io.Writer
	closer io.Closer
	err    error // first write error; later writes are skipped
	seq    atomic.Int64
}

// record is one JSON line. Pointers keep meaningful zero values (an empty
// SSE line, 0 ms) in the output.
type record struct {
	Kind     string          `json:"kind"`
	Seq      int64           `json:"seq"`
	Dialect  string          `json:"dialect,omitempty"`
	Path     string          `json:"path,omitempty"`
	Attempt  int             `json:"attempt,omitempty"`
	MS       *int64          `json:"ms,omitempty"`
	Status   int             `json:"status,omitempty"`
	Body     json.RawMessage `json:"body,omitempty"`
	Line     *string         `json:"line,omitempty"`
	DelayMS  int64           `json:"delay_ms,omitempty"`
	Attempts int             `json:"attempts,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// NewRecorder records to w.
func NewRecorder(w io.Writer) *Recorder { return &Recorder{w: w} }

// OpenRecorder creates (or truncates) the file at path, readable by its
// owner only: it holds prompts and answers.
func OpenRecorder(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening recording: %w", err)
	}
	return &Recorder{w: f, closer: f}, nil
}

// Close closes the file of OpenRecorder and reports the first write error.
// Exchanges still running after Close record nothing more.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == errRecorderClosed {
		return nil
	}
	writeErr := r.err
	r.err = errRecorderClosed
	var closeErr error
	if r.closer != nil {
		closeErr = r.closer.Close()
	}
	if writeErr != nil {
		return fmt.Errorf("writing recording: %w", writeErr)
	}
	return closeErr
}

// exchange records one request. A nil *exchange records nothing, so the
// HTTP code needs no "if recording" branches.
type exchange struct {
	rec    *Recorder
	seq    int64
	start  time.Time
	secret [][]byte // the key, raw and JSON-escaped
	redact func(string) string
}

func (r *Recorder) begin(dialect, path string, body []byte, secret string, redact func(string) string) *exchange {
	if r == nil {
		return nil
	}
	x := &exchange{rec: r, seq: r.seq.Add(1), start: time.Now(), redact: redact}
	if secret != "" {
		quoted, _ := json.Marshal(secret)
		x.secret = [][]byte{[]byte(secret), quoted[1 : len(quoted)-1]}
	}
	raw := json.RawMessage(body)
	if !json.Valid(body) { // keep the record valid JSON whatever the encoder did
		raw, _ = json.Marshal(string(body))
	}
	x.write(record{Kind: "request", Dialect: dialect, Path: path, Body: raw})
	return x
}

func (x *exchange) response(attempt, status int, body string) {
	if x == nil {
		return
	}
	var b json.RawMessage
	if body != "" {
		b, _ = json.Marshal(body)
	}
	x.write(record{Kind: "response", Attempt: attempt, MS: x.ms(), Status: status, Body: b})
}

func (x *exchange) line(l []byte) {
	if x == nil {
		return
	}
	s := string(l)
	x.write(record{Kind: "line", MS: x.ms(), Line: &s})
}

func (x *exchange) retry(attempt int, delay time.Duration, err error) {
	if x == nil {
		return
	}
	x.write(record{Kind: "retry", Attempt: attempt, MS: x.ms(), DelayMS: delay.Milliseconds(), Error: err.Error()})
}

func (x *exchange) end(attempts int, err error) {
	if x == nil {
		return
	}
	rec := record{Kind: "end", MS: x.ms(), Attempts: attempts}
	if err != nil {
		rec.Error = err.Error()
	}
	x.write(rec)
}

func (x *exchange) ms() *int64 {
	ms := time.Since(x.start).Milliseconds()
	return &ms
}

func (x *exchange) write(rec record) {
	rec.Seq = x.seq
	b, err := json.Marshal(rec)
	if err != nil { // cannot happen with these field types; never lose it silently
		b, _ = json.Marshal(record{Kind: "error", Seq: x.seq, Error: err.Error()})
	}
	for _, s := range x.secret {
		b = bytes.ReplaceAll(b, s, []byte(redacted))
	}
	if x.redact != nil {
		b = []byte(x.redact(string(b)))
	}
	b = append(b, '\n')
	r := x.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if _, err := r.w.Write(b); err != nil {
		r.err = err
	}
}

// errRecorderClosed stops writes after Close.
var errRecorderClosed = errors.New("recorder closed")
