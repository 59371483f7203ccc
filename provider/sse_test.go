package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type frame struct{ Event, Data string }

// readFrames reads every frame of r and the error that ended it.
func readFrames(r io.Reader) ([]frame, error) {
	s := NewSSEReader(r)
	var out []frame
	for {
		ev, data, err := s.Next()
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		out = append(out, frame{ev, string(data)})
	}
}

func TestSSEReaderFraming(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []frame
	}{
		{"lf", "data: a\n\ndata: b\n\n", []frame{{"", "a"}, {"", "b"}}},
		{"crlf", "data: a\r\n\r\ndata: b\r\n\r\n", []frame{{"", "a"}, {"", "b"}}},
		{"cr only", "data: a\r\rdata: b\r\r", []frame{{"", "a"}, {"", "b"}}},
		{"event name", "event: ping\ndata: {}\n\n", []frame{{"ping", "{}"}}},
		{"event resets after dispatch", "event: x\ndata: 1\n\ndata: 2\n\n", []frame{{"x", "1"}, {"", "2"}}},
		{"multi-line data joined by LF", "data: a\ndata: b\n\n", []frame{{"", "a\nb"}}},
		{"no space after colon", "data:a\n\n", []frame{{"", "a"}}},
		{"only one space removed", "data:  a\n\n", []frame{{"", " a"}}},
		{"comment skipped", ": keep-alive\ndata: a\n\n", []frame{{"", "a"}}},
		{"id and retry ignored", "id: 7\nretry: 10\ndata: a\n\n", []frame{{"", "a"}}},
		{"field without colon", "data\n\n", []frame{{"", ""}}},
		{"empty data line dispatches", "data:\n\n", []frame{{"", ""}}},
		{"frame without data not dispatched", "event: x\n\ndata: a\n\n", []frame{{"", "a"}}},
		{"final frame without blank line", "data: a\n\ndata: [DONE]", []frame{{"", "a"}, {"", "[DONE]"}}},
		{"final frame ending in newline", "data: [DONE]\n", []frame{{"", "[DONE]"}}},
		{"bom stripped", "\xEF\xBB\xBFdata: a\n\n", []frame{{"", "a"}}},
		{"blank lines between frames", "\n\n\ndata: a\n\n\n", []frame{{"", "a"}}},
		{"colon inside value kept", "data: {\"a\":1}\n\n", []frame{{"", `{"a":1}`}}},
		{"empty input", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunked := range []bool{false, true} {
				var r io.Reader = strings.NewReader(tt.in)
				if chunked {
					r = iotest.OneByteReader(r) // every CR/LF split across reads
				}
				got, err := readFrames(r)
				if err != nil {
					t.Fatalf("chunked=%v: error %v", chunked, err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("chunked=%v: frames %q, want %q", chunked, got, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderOnLineSeesRawLines(t *testing.T) {
	s := NewSSEReader(strings.NewReader(": c\r\nevent: e\r\ndata: x\r\n\r\n"))
	var lines []string
	s.OnLine = func(l []byte) { lines = append(lines, string(l)) }
	if _, _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	want := []string{": c", "event: e", "data: x", ""}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
}

func TestSSEReaderReadErrorIsReturnedAndPartialFrameDropped(t *testing.T) {
	broken := errors.New("connection reset")
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: partial"), iotest.ErrReader(broken))
	got, err := readFrames(r)
	if !errors.Is(err, broken) {
		t.Fatalf("error %v, want %v", err, broken)
	}
	if fmt.Sprint(got) != fmt.Sprint([]frame{{"", "a"}}) {
		t.Errorf("frames %q: the partial frame must not be dispatched", got)
	}
}

func TestSSEReaderOversizeLine(t *testing.T) {
	huge := io.MultiReader(strings.NewReader("data: "), &repeatReader{b: 'x', n: maxSSELine + 10})
	_, err := readFrames(huge)
	if !errors.Is(err, ErrMalformedFrame) || !strings.Contains(err.Error(), "SSE line longer than 16777216 bytes") {
		t.Fatalf("error %v, want an oversize line error", err)
	}
}

func TestSSEReaderLongLineUnderLimit(t *testing.T) {
	long := strings.Repeat("y", 1<<20)
	got, err := readFrames(strings.NewReader("data: " + long + "\n\n"))
	if err != nil || len(got) != 1 || got[0].Data != long {
		t.Fatalf("got %d frames, err %v; want the 1 MiB line back", len(got), err)
	}
}

type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	if n == 0 {
		return 0, nil
	}
	p[0] = r.b
	for filled := 1; filled < n; filled *= 2 {
		copy(p[filled:n], p[:filled])
	}
	r.n -= n
	return n, nil
}

// countingReader reports how much of its input was consumed.
type countingReader struct {
	r    io.Reader
	read int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func TestDecodeSSE(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		events  string // the Types and Texts emitted
		wantErr string // "" for success
		is      error
	}{
		{"done ends", "data: {\"t\":\"text\",\"v\":\"hi\"}\n\ndata: {\"t\":\"done\"}\n\n", "text:hi done", "", nil},
		{"end without done", "data: {\"t\":\"text\",\"v\":\"hi\"}\n\n", "text:hi",
			"model API stream ended without a finish: test stream ended before its done frame", ErrNoFinish},
		{"malformed frame", "data: {nope\n\n", "",
			"malformed frame: test frame 1: invalid character 'n' looking for beginning of object key string", ErrMalformedFrame},
		{"server error keeps its text", "data: {\"t\":\"error\",\"v\":\"overloaded\"}\n\n", "",
			"model API reported an error: test_error: overloaded", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := DecodeSSE(strings.NewReader(tt.in), (testDialect{}).NewDecoder(), nil, func(e Event) {
				got = append(got, strings.TrimSuffix(e.Type.String()+":"+e.Text, ":"))
			})
			if strings.Join(got, " ") != tt.events {
				t.Errorf("events %q, want %q", strings.Join(got, " "), tt.events)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr):
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			case tt.is != nil && !errors.Is(err, tt.is):
				t.Fatalf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}

func TestDecodeSSEStopsReadingAtDone(t *testing.T) {
	// Far more than one buffer follows the done frame: none of it is read.
	tail := bytes.Repeat([]byte("data: {\"t\":\"text\",\"v\":\"late\"}\n\n"), 1<<16)
	in := &countingReader{r: io.MultiReader(strings.NewReader("data: {\"t\":\"done\"}\n\n"), bytes.NewReader(tail))}
	var events []Event
	if err := DecodeSSE(in, (testDialect{}).NewDecoder(), nil, func(e Event) { events = append(events, e) }); err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].Type != EventDone {
		t.Fatalf("events %v, want only done", events)
	}
	if in.read > 64<<10 {
		t.Errorf("read %d bytes after done; want at most one buffer", in.read)
	}
}

func TestDecodeSSEReadErrorKeepsText(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: {\"t\":\"text\",\"v\":\"a\"}\n\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
	err := DecodeSSE(r, (testDialect{}).NewDecoder(), nil, func(Event) {})
	if !errors.Is(err, io.ErrUnexpectedEOF) || err.Error() != "unexpected EOF" {
		t.Fatalf("error %v, want unexpected EOF", err)
	}
}
