package lsp

import (
	"fmt"
	"strconv"

	fastjson "github.com/segmentio/encoding/json"
)

// updateFrame is where a listener's writer builds each text update's whole
// frame (header and agent/update notification) in one reused buffer, the
// delta path of every streamed answer. Through jsonrpc2's Notify a delta
// was marshalled three times (the params, then the notification around
// them, then copied behind the header) into three new buffers.
type updateFrame struct {
	buf  []byte
	text textUpdate // reused: only the writer builds frames
}

// updateNotificationHead is what jsonrpc2 writes before a notification's
// params; the wire golden tests pin that the two paths agree.
const updateNotificationHead = `{"jsonrpc":"2.0","method":"agent/update","params":`

// headerRoom is kept in front of the body for its Content-Length header,
// which is written once the body's length is known, right-aligned against
// it: the frame leaves in one write with no copy.
const headerRoom = len("Content-Length: \r\n\r\n") + 20

// keptFrameBuffer bounds the buffer kept between updates: one very long
// update's buffer is dropped after it is written, not held for the prompt.
const keptFrameBuffer = 256 << 10

// build returns the frame of the text update of kind k carrying text,
// numbered by number (which sets its session and seq). The frame is valid
// until the next build.
func (f *updateFrame) build(k, text string, number func(*updateHeader)) ([]byte, error) {
	f.text = textUpdate{updateHeader: kind(k), textBody: textBody{Text: text}}
	number(&f.text.updateHeader)
	b := f.buf[:0]
	for range headerRoom {
		b = append(b, ' ')
	}
	b = append(b, updateNotificationHead...)
	// The flags of jsonrpc2's own marshalling (segmentio's Marshal).
	b, err := fastjson.Append(b, &f.text, fastjson.EscapeHTML|fastjson.SortMapKeys)
	f.text = textUpdate{} // do not hold the text until the next update
	if err != nil {
		return nil, fmt.Errorf("marshaling agent/update: %w", err)
	}
	b = append(b, '}')
	var header [headerRoom]byte
	h := append(header[:0], "Content-Length: "...)
	h = strconv.AppendInt(h, int64(len(b)-headerRoom), 10)
	h = append(h, "\r\n\r\n"...)
	start := headerRoom - len(h)
	copy(b[start:], h)
	f.buf = b
	if cap(b) > keptFrameBuffer {
		f.buf = nil
	}
	return b[start:], nil
}

// writeWholeFrame writes a frame built with its header, in one write.
func (s *stream) writeWholeFrame(frame []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.stopped.Load() {
		return errWriterStopped
	}
	if _, err := s.out.Write(frame); err != nil {
		return fmt.Errorf("write to stream: %w", err)
	}
	return nil
}
