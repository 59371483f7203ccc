package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// maxFrameBytes bounds one message body. A larger Content-Length is treated
// as a malformed header rather than a reason to allocate gigabytes.
const maxFrameBytes = 64 << 20

// maxHeaderLine bounds one header line; a longer one is garbage.
const maxHeaderLine = 8 << 10

// errWriterStopped is returned by writes after the conversation is over
// (exit, or the client went away): nothing may reach stdout then.
var errWriterStopped = errors.New("lsp: connection closed, not writing")

// stream is the LSP base protocol (Content-Length framing) for jsonrpc2.
//
// Unlike jsonrpc2.NewStream, a malformed frame does not end the
// connection: jsonrpc2's Conn closes the stream on any Read error, so this
// stream answers the frame itself (-32700 parse error or -32600 invalid
// request, id null when the id cannot be read), resynchronises on the next
// Content-Length header and keeps reading. Only the end of the input (or a
// failing read) is returned as an error.
type stream struct {
	in     *frameReader
	closer io.Closer // the input, when it can be closed
	out    io.Writer
	log    *zap.Logger

	wmu     sync.Mutex // serializes writes: Conn's and this stream's own error replies
	stopped atomic.Bool

	// deferred are results written in pieces in place of the null their
	// replies carry (reply_pieces.go).
	deferred deferredResults
}

func newStream(in io.Reader, out io.Writer, log *zap.Logger) *stream {
	s := &stream{in: &frameReader{r: bufio.NewReaderSize(in, 64<<10)}, out: out, log: log}
	if c, ok := in.(io.Closer); ok {
		s.closer = c
	}
	return s
}

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, err := s.in.frame()
		var bad *badFrame
		if errors.As(err, &bad) {
			s.log.Warn("malformed LSP frame", zap.String("problem", bad.msg))
			s.writeError(nil, jsonrpc2.ParseError, bad.msg)
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		// DecodeMessage alone would accept a valid value followed by junk
		// (its decoder stops after the first value).
		if !json.Valid(body) {
			s.rejectBody(body, errors.New("not valid JSON"))
			continue
		}
		// A document's text is decoded once, into the body (frames_text.go).
		if msg, ok := decodeTextFrame(body); ok {
			return msg, int64(len(body)), nil
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, int64(len(body)), nil
		}
		s.rejectBody(body, err)
	}
}

// rejectBody answers a body that is not a JSON-RPC message. When it is not
// JSON at all and holds a Content-Length header, the declared length was
// too long and swallowed the next frame: that frame is read again.
func (s *stream) rejectBody(body []byte, decodeErr error) {
	if !json.Valid(body) {
		if i := indexFold(body, "content-length:"); i >= 0 {
			s.in.unread(body[i:])
		}
		s.log.Warn("LSP message is not JSON", zap.Int("bytes", len(body)))
		s.writeError(nil, jsonrpc2.ParseError, "parse error: the message body is not valid JSON")
		return
	}
	// Valid JSON but not a message: answer with its id when one can be read.
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	var id json.RawMessage
	if json.Unmarshal(body, &probe) == nil && validID(probe.ID) {
		id = probe.ID
	}
	s.log.Warn("invalid JSON-RPC message", zap.Error(decodeErr))
	s.writeError(id, jsonrpc2.InvalidRequest, "invalid request: "+decodeErr.Error())
}

// validID reports a JSON-RPC id: a string or an integer.
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return true
	}
	var n int64
	return json.Unmarshal(raw, &n) == nil
}

// writeError writes an error response; id nil is written as null.
func (s *stream) writeError(id json.RawMessage, code jsonrpc2.Code, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: code, Message: message}})
	if err := s.writeFrame(data); err != nil && !errors.Is(err, errWriterStopped) {
		s.log.Warn("writing an error response failed", zap.Error(err))
	}
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if r, ok := msg.(*jsonrpc2.Response); ok && r.Err() == nil {
		if result, ok := s.deferred.take(r.ID()); ok {
			return s.writePieces(r.ID(), result)
		}
	}
	// jsonrpc2's messages marshal themselves; json.Marshal would only
	// check and copy their JSON twice more, which for an answer of
	// megabytes is megabytes more.
	var data []byte
	var err error
	if m, ok := msg.(json.Marshaler); ok {
		data, err = m.MarshalJSON()
	} else {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	if err := s.writeFrame(data); err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

// largeFrame is the size from which a message is written apart from its
// header (two writes) rather than copied behind it (one).
const largeFrame = 64 << 10

func (s *stream) writeFrame(data []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.stopped.Load() {
		return errWriterStopped
	}
	header := make([]byte, 0, 32)
	header = append(header, "Content-Length: "...)
	header = strconv.AppendInt(header, int64(len(data)), 10)
	header = append(header, "\r\n\r\n"...)
	frame := [][]byte{header, data} // a large message is written as it is, not copied behind its header
	if len(data) <= largeFrame {
		frame = [][]byte{append(header, data...)}
	}
	for _, b := range frame {
		if _, err := s.out.Write(b); err != nil {
			return fmt.Errorf("write to stream: %w", err)
		}
	}
	return nil
}

// stopWriting makes every later write fail at once. It does not wait for a
// write in progress: a client that stopped reading would block it forever.
func (s *stream) stopWriting() { s.stopped.Store(true) }

// Close implements jsonrpc2.Stream: it stops writing and closes the input
// when it can be closed (a blocked read of a plain reader stays blocked
// until its writer closes).
func (s *stream) Close() error {
	s.stopped.Store(true)
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// badFrame is a frame that cannot be read but does not end the input.
type badFrame struct{ msg string }

func (b *badFrame) Error() string { return b.msg }

// frameReader reads Content-Length frames, with a push-back buffer for
// resynchronisation.
type frameReader struct {
	pending []byte // bytes to read before r
	r       *bufio.Reader
}

// frame returns the next body. Header problems are *badFrame; the reader
// is then left at the next Content-Length header, if any was seen.
func (f *frameReader) frame() ([]byte, error) {
	length := -1
	var problem string
	sawHeader := false
	for {
		line, err := f.line()
		if err != nil {
			return nil, err
		}
		if i := indexFold(line, "content-length:"); i >= 0 {
			if problem != "" {
				// A new frame starts after garbage: report the garbage, then
				// read this frame.
				f.unread(line[i:])
				return nil, &badFrame{msg: "parse error: " + problem}
			}
			// A short body leaves its tail in front of the next header on
			// the same line: start at the header name.
			line = line[i:]
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			if !sawHeader {
				continue // blank lines between frames
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			if problem == "" {
				problem = fmt.Sprintf("invalid header line %q", clip(text, 80))
			}
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			switch {
			case err != nil:
				problem = fmt.Sprintf("bad Content-Length %q", clip(value, 40))
			case n <= 0 || n > maxFrameBytes:
				problem = fmt.Sprintf("bad Content-Length %d (want 1..%d)", n, maxFrameBytes)
			default:
				length = n
			}
		}
	}
	if problem == "" && length < 0 {
		problem = "missing Content-Length header"
	}
	if problem != "" {
		return nil, &badFrame{msg: "parse error: " + problem}
	}
	body := make([]byte, length)
	if err := f.full(body); err != nil {
		return nil, err
	}
	return body, nil
}

// line returns the next line (with its newline), at most maxHeaderLine
// bytes; a longer one is returned in pieces.
func (f *frameReader) line() ([]byte, error) {
	if len(f.pending) > 0 {
		if i := bytes.IndexByte(f.pending, '\n'); i >= 0 {
			line := f.pending[:i+1]
			f.pending = f.pending[i+1:]
			return line, nil
		}
		head := f.pending
		f.pending = nil
		rest, err := f.line()
		return append(append([]byte(nil), head...), rest...), err
	}
	var line []byte
	for len(line) < maxHeaderLine {
		b, err := f.r.ReadByte()
		if err != nil {
			if len(line) > 0 && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = append(line, b)
		if b == '\n' {
			break
		}
	}
	return line, nil
}

func (f *frameReader) full(buf []byte) error {
	n := copy(buf, f.pending)
	f.pending = f.pending[n:]
	if n == len(buf) {
		return nil
	}
	if _, err := io.ReadFull(f.r, buf[n:]); err != nil {
		return fmt.Errorf("reading a %d-byte message body: %w", len(buf), err)
	}
	return nil
}

// unread puts b back in front of the input.
func (f *frameReader) unread(b []byte) {
	f.pending = append(append([]byte(nil), b...), f.pending...)
}

// indexFold is the index of word (lower-case ASCII) in b, ignoring ASCII
// case, or -1.
func indexFold(b []byte, word string) int {
	n := len(word)
	for i := 0; i+n <= len(b); i++ {
		if lowerASCII(b[i]) != word[0] {
			continue
		}
		j := 1
		for j < n && lowerASCII(b[i+j]) == word[j] {
			j++
		}
		if j == n {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// isClosed reports an error that only means the conversation is over.
func isClosed(err error) bool { return errors.Is(err, errWriterStopped) }
