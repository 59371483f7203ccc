package provider

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkSSEReader frames a stream shaped like a Chat Completions answer:
// 2000 small JSON chunks, CRLF line ends, a keep-alive comment now and then.
func BenchmarkSSEReader(b *testing.B) {
	var in bytes.Buffer
	for i := range 2000 {
		if i%100 == 0 {
			in.WriteString(": keep-alive\r\n\r\n")
		}
		fmt.Fprintf(&in, "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token %d \"}}]}\r\n\r\n", i)
	}
	in.WriteString("data: [DONE]\r\n\r\n")
	stream := in.Bytes()
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewSSEReader(bytes.NewReader(stream))
		frames := 0
		for {
			_, _, err := s.Next()
			if err != nil {
				break
			}
			frames++
		}
		if frames != 2001 {
			b.Fatalf("%d frames, want 2001", frames)
		}
	}
}
