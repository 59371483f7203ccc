package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"sync"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
)

// piecewiseResult is a reply's result written in pieces rather than
// marshalled whole: jsonrpc2 marshals a result into one buffer and then
// copies it into the response, so a reply carrying a long answer would
// hold the answer three times over. The stream counts the pieces' bytes
// for the header, then writes them: pieces must yield the same bytes on
// every call.
type piecewiseResult interface {
	pieces() iter.Seq[[]byte]
}

// deferredResults holds the piecewise results of replies about to be
// written, by request id: the reply that jsonrpc2 marshals carries null,
// and the stream writes the registered result in its place.
type deferredResults struct {
	mu      sync.Mutex
	results map[jsonrpc2.ID]piecewiseResult
}

func (d *deferredResults) put(id jsonrpc2.ID, r piecewiseResult) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.results == nil {
		d.results = make(map[jsonrpc2.ID]piecewiseResult)
	}
	d.results[id] = r
}

// take returns and forgets the result registered for id.
func (d *deferredResults) take(id jsonrpc2.ID) (piecewiseResult, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.results[id]
	delete(d.results, id)
	return r, ok
}

// forget drops what was registered for id (the reply was not written).
func (d *deferredResults) forget(id jsonrpc2.ID) { d.take(id) }

// writePieces writes a response whose result is written in pieces: its
// length counted first, for the header, then each piece as it is made.
func (s *stream) writePieces(id jsonrpc2.ID, result piecewiseResult) (int64, error) {
	body, err := responsePieces(id, result)
	if err != nil {
		return 0, err
	}
	var n int64
	for p := range body {
		n += int64(len(p))
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.stopped.Load() {
		return 0, errWriterStopped
	}
	// A piece is small (a chunk of escaped text): gathered into pages of
	// largeFrame bytes they leave in few writes.
	w := bufio.NewWriterSize(s.out, largeFrame)
	fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", n)
	for p := range body {
		if _, err := w.Write(p); err != nil {
			return 0, fmt.Errorf("write to stream: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return 0, fmt.Errorf("write to stream: %w", err)
	}
	return n, nil
}

// responsePieces is a success response around a piecewise result.
func responsePieces(id jsonrpc2.ID, result piecewiseResult) (iter.Seq[[]byte], error) {
	rawID, err := id.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshaling the reply's id: %w", err)
	}
	head := append(append([]byte(`{"jsonrpc":"2.0","id":`), rawID...), `,"result":`...)
	return func(yield func([]byte) bool) {
		if !yield(head) {
			return
		}
		for p := range result.pieces() {
			if !yield(p) {
				return
			}
		}
		yield([]byte("}"))
	}, nil
}

// textChunk is how much of a long text is escaped at a time.
const textChunk = 32 << 10

// jsonStringPieces yields s as a JSON string, quotes included, escaped as
// encoding/json escapes it, a chunk at a time. Chunks end before a byte
// that starts a UTF-8 sequence, so no character (valid or not) is split
// and each escapes as it would within the whole.
func jsonStringPieces(s string, yield func([]byte) bool) bool {
	if !yield([]byte(`"`)) {
		return false
	}
	for len(s) > 0 {
		n := min(textChunk, len(s))
		for n < len(s) && !utf8.RuneStart(s[n]) {
			n++
		}
		quoted, err := json.Marshal(s[:n])
		if err != nil { // a string always marshals
			panic(err)
		}
		if !yield(quoted[1 : len(quoted)-1]) {
			return false
		}
		s = s[n:]
	}
	return yield([]byte(`"`))
}

// withoutBrace returns an object's JSON without its closing brace (end)
// or its opening one.
func withoutBrace(object []byte, end bool) []byte {
	object = bytes.TrimSpace(object)
	if end {
		return object[:len(object)-1]
	}
	return object[1:]
}
