package provider

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// chunkReader returns at most n bytes per Read, so line ends split across
// reads in every way the fuzzer finds.
type chunkReader struct {
	b []byte
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.b))
	copy(p, c.b[:k])
	c.b = c.b[k:]
	return k, nil
}

// encodeFrames writes frames back as an event stream.
func encodeFrames(frames []frame) []byte {
	var b bytes.Buffer
	for _, f := range frames {
		if f.Event != "" {
			b.WriteString("event: " + f.Event + "\n")
		}
		for _, line := range strings.Split(f.Data, "\n") {
			b.WriteString("data: " + line + "\n")
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// FuzzSSEReader checks, for any input: no panic and no error but EOF; event
// names hold no line end and data no CR (LF only as the joiner); the frames
// do not depend on how the input is split into reads; and re-encoding the
// frames and reading them again gives the same frames (round trip).
func FuzzSSEReader(f *testing.F) {
	for _, seed := range []string{
		"data: a\n\n",
		"event: content_block_delta\r\ndata: {\"type\":\"x\"}\r\n\r\n",
		"data: a\rdata: b\r\r",
		": comment\n\ndata\n\ndata:\n\n",
		"\xEF\xBB\xBFdata: [DONE]",
		"event: x\n\nid: 1\nretry: 2\ndata:  two spaces\n",
	} {
		f.Add([]byte(seed), uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, chunk uint8) {
		whole, err := readFrames(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("error %v on in-memory input", err)
		}
		for _, fr := range whole {
			if strings.ContainsAny(fr.Event, "\r\n") || strings.Contains(fr.Data, "\r") {
				t.Fatalf("frame %q holds a line end it should not", fr)
			}
		}
		split, err := readFrames(&chunkReader{b: in, n: int(chunk%16) + 1})
		if err != nil {
			t.Fatalf("error %v on chunked input", err)
		}
		if fmt.Sprintf("%q", split) != fmt.Sprintf("%q", whole) {
			t.Fatalf("chunked read gives %q, whole read %q", split, whole)
		}
		again, err := readFrames(bytes.NewReader(encodeFrames(whole)))
		if err != nil {
			t.Fatalf("error %v reading re-encoded frames", err)
		}
		if fmt.Sprintf("%q", again) != fmt.Sprintf("%q", whole) {
			t.Fatalf("round trip gives %q, want %q", again, whole)
		}
	})
}
