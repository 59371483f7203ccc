package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// maxSSELine bounds one line and one frame's data. Model APIs send frames of
// a few hundred bytes; anything this large is a broken or hostile server.
const maxSSELine = 16 << 20

// ErrMalformedFrame marks a frame the decoder (or the framer) could not
// understand. DecodeSSE wraps such errors so their text reads
// "malformed frame: ...".
var ErrMalformedFrame = errors.New("malformed frame")

// ErrNoFinish marks a stream whose body ended before the decoder saw the end
// of the answer.
var ErrNoFinish = errors.New("model API stream ended without a finish")

// ServerError is an error the server reported inside a 2xx stream (an
// Anthropic `event: error` frame, an OpenAI `{"error":...}` chunk). A Decoder
// returns it (possibly wrapped) so that DecodeSSE keeps its text instead of
// calling the frame malformed.
type ServerError struct {
	Type    string // the server's error type ("overloaded_error"), may be empty
	Message string
}

func (e *ServerError) Error() string {
	if e.Type == "" {
		return "model API reported an error: " + e.Message
	}
	return "model API reported an error: " + e.Type + ": " + e.Message
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// SSEReader splits a text/event-stream body into frames, following the
// WHATWG event-stream rules: CR, LF and CRLF end lines; ":" starts a comment;
// "data" lines are joined with "\n"; a blank line dispatches the frame if it
// had at least one data line; "id" and "retry" are ignored. Unlike a browser,
// a final frame without its blank line is still dispatched at EOF.
type SSEReader struct {
	// OnLine, when set, sees every raw line (without its line end) before it
	// is interpreted; used for recording and --dump-raw. The slice is only
	// valid during the call.
	OnLine func(line []byte)

	r          io.Reader
	buf        []byte
	start, end int // unread bytes are buf[start:end]
	scanned    int // bytes of buf[start:end] known to hold no line end
	err        error
	skipLF     bool // the last line ended with CR: a following LF belongs to it
	bomChecked bool

	data      []byte
	hasData   bool
	event     string // the current frame's event name
	lastEvent string // reused so repeated event names allocate once
}

// NewSSEReader returns a reader of the frames in r.
func NewSSEReader(r io.Reader) *SSEReader {
	return &SSEReader{r: r, buf: make([]byte, 32<<10)}
}

// Next returns the next dispatched frame: its "event:" value ("" when
// absent) and its data. data is only valid until the next call. It returns
// io.EOF at a clean end, the reader's error when reading fails, and an error
// wrapping ErrMalformedFrame for a line or frame over 16 MiB.
func (s *SSEReader) Next() (event string, data []byte, err error) {
	for {
		line, err := s.readLine()
		if err != nil {
			if err == io.EOF && s.hasData {
				return s.dispatch()
			}
			return "", nil, err
		}
		if s.OnLine != nil {
			s.OnLine(line)
		}
		if !s.bomChecked {
			s.bomChecked = true
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if len(line) == 0 {
			if s.hasData {
				return s.dispatch()
			}
			s.event = ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if s.hasData {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			s.hasData = true
			if len(s.data) > maxSSELine {
				return "", nil, fmt.Errorf("%w: SSE frame longer than %d bytes", ErrMalformedFrame, maxSSELine)
			}
		case "event":
			if string(value) != s.lastEvent {
				s.lastEvent = string(value)
			}
			s.event = s.lastEvent
		}
	}
}

func (s *SSEReader) dispatch() (string, []byte, error) {
	event, data := s.event, s.data
	s.event, s.data, s.hasData = "", s.data[:0], false
	return event, data, nil
}

// readLine returns the next line without its line end. The slice points
// into the buffer and is valid until the next call.
func (s *SSEReader) readLine() ([]byte, error) {
	for {
		if s.skipLF && s.start < s.end {
			if s.buf[s.start] == '\n' {
				s.start++
			}
			s.skipLF = false
		}
		window := s.buf[s.start:s.end]
		if i := indexLineEnd(window, s.scanned); i >= 0 {
			line := window[:i]
			s.start += i + 1
			s.scanned = 0
			if window[i] == '\r' {
				if i+1 < len(window) {
					if window[i+1] == '\n' {
						s.start++
					}
				} else {
					s.skipLF = true
				}
			}
			return line, nil
		}
		s.scanned = len(window)
		if s.err != nil {
			if s.err == io.EOF && len(window) > 0 {
				s.start, s.scanned = s.end, 0
				return window, nil
			}
			return nil, s.err
		}
		if len(window) > maxSSELine {
			s.err = fmt.Errorf("%w: SSE line longer than %d bytes", ErrMalformedFrame, maxSSELine)
			return nil, s.err
		}
		s.fill()
	}
}

// indexLineEnd finds the first CR or LF in b at or after from.
func indexLineEnd(b []byte, from int) int {
	b = b[from:]
	lf := bytes.IndexByte(b, '\n')
	search := b
	if lf >= 0 {
		search = b[:lf]
	}
	if cr := bytes.IndexByte(search, '\r'); cr >= 0 {
		return from + cr
	}
	if lf < 0 {
		return -1
	}
	return from + lf
}

// fill reads more input after moving the unread bytes to the front and
// growing the buffer when a line does not fit.
func (s *SSEReader) fill() {
	if s.start > 0 {
		s.end = copy(s.buf, s.buf[s.start:s.end])
		s.start = 0
	}
	if s.end == len(s.buf) {
		grown := make([]byte, 2*len(s.buf))
		copy(grown, s.buf[:s.end])
		s.buf = grown
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	s.err = io.ErrNoProgress
}

// readError marks a failure of the underlying reader (a dropped
// connection), as opposed to a frame the decoder rejected. Its text is the
// reader's.
type readError struct{ err error }

func (e *readError) Error() string { return e.err.Error() }
func (e *readError) Unwrap() error { return e.err }

// errStopped ends decodeSSE when the consumer no longer wants events.
var errStopped = errors.New("consumer stopped reading")

// DecodeSSE reads frames from r and feeds them to dec, calling emit for each
// event, until dec emits EventDone (returns nil), the body ends (calls
// dec.End), or an error. Frame errors are returned wrapping
// ErrMalformedFrame, except a *ServerError (or any error of an "error"
// event), whose text is kept. A body that ends without EventDone returns an
// error wrapping ErrNoFinish. Read errors keep their text and wrap the
// reader's error. It never
// emits EventFailure: the caller does.
func DecodeSSE(r io.Reader, dec Decoder, onLine func([]byte), emit func(Event)) error {
	return decodeSSE(r, dec, onLine, func(e Event) bool { emit(e); return true })
}

// decodeSSE is DecodeSSE whose emit can ask to stop at once (returns false);
// it then returns errStopped.
func decodeSSE(r io.Reader, dec Decoder, onLine func([]byte), emit func(Event) bool) error {
	sr := NewSSEReader(r)
	sr.OnLine = onLine
	var done, stopped bool
	var failure error
	relay := func(e Event) {
		if done || stopped || failure != nil {
			return
		}
		switch e.Type {
		case EventFailure: // a decoder breaking its contract: still a failure
			failure = e.Err
			if failure == nil {
				failure = errors.New("decoder emitted a failure without an error")
			}
			return
		case EventDone:
			done = true
		}
		if !emit(e) {
			stopped = true
		}
	}
	outcome := func() (bool, error) {
		switch {
		case failure != nil:
			return true, failure
		case done:
			return true, nil
		case stopped:
			return true, errStopped
		}
		return false, nil
	}
	for {
		event, data, err := sr.Next()
		if err == io.EOF {
			endErr := dec.End(relay)
			if over, err := outcome(); over {
				return err
			}
			if endErr != nil {
				return fmt.Errorf("%w: %w", ErrNoFinish, endErr)
			}
			return ErrNoFinish
		}
		if err != nil {
			if errors.Is(err, ErrMalformedFrame) {
				return err
			}
			return &readError{err}
		}
		if err := dec.Frame(event, data, relay); err != nil {
			var serverErr *ServerError
			if errors.As(err, &serverErr) || event == "error" {
				return err
			}
			return fmt.Errorf("%w: %w", ErrMalformedFrame, err)
		}
		if over, err := outcome(); over {
			return err
		}
	}
}
