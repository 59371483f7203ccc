package tools

import (
	"fmt"
	"unicode/utf8"
)

// headTailBuffer keeps the start and the end of a command's output within
// a fixed budget, however much the command prints: the start shows what
// ran, the end how it finished (errors, summaries).
type headTailBuffer struct {
	headMax, tailMax int
	head, tail       []byte
	total            int64
}

func newHeadTailBuffer(limit int) *headTailBuffer {
	return &headTailBuffer{headMax: limit / 2, tailMax: limit - limit/2}
}

func (b *headTailBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.total += int64(n)
	if room := b.headMax - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= b.tailMax {
		b.tail = append(b.tail[:0], p[len(p)-b.tailMax:]...)
		return n, nil
	}
	if drop := len(b.tail) + len(p) - b.tailMax; drop > 0 {
		b.tail = append(b.tail[:0], b.tail[drop:]...)
	}
	b.tail = append(b.tail, p...)
	return n, nil
}

// String returns the output, with a note in the middle when some was left
// out. Cuts fall on rune boundaries.
func (b *headTailBuffer) String() string {
	omitted := b.total - int64(len(b.head)) - int64(len(b.tail))
	if omitted == 0 {
		return string(b.head) + string(b.tail)
	}
	head := trimPartialRuneEnd(b.head)
	tail := b.tail
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	omitted += int64(len(b.head)-len(head)) + int64(len(b.tail)-len(tail))
	return fmt.Sprintf("%s\n… [%d bytes of output omitted] …\n%s", head, omitted, tail)
}

// trimPartialRuneEnd drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRuneEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}
