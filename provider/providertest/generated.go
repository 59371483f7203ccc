package providertest

import "strings"

// GeneratedText is text the server writes after a turn's Text without
// holding it: the frames of its deltas are made once and written again and
// again, so a test can stream an answer of any size (a 128 MiB flood) while
// the fake itself stays small. The text is "lorem ipsum " repeated. The
// server does not remember it: a later request that sends it back is
// checked as if the turn had produced Text alone.
type GeneratedText struct {
	Bytes int // how much text
	Delta int // bytes per delta (default 4096)
}

// loremIpsum is what generated text repeats.
const loremIpsum = "lorem ipsum "

// generated is a turn's GeneratedText on the wire: before frame `at` of the
// answer, `full` is written `count` times, then `last` (when not nil).
type generated struct {
	at    int
	full  []byte
	count int
	last  []byte
}

// newGenerated makes the frames of g with frame, which frames one delta of
// text in the answer's dialect.
func newGenerated(g *GeneratedText, at int, frame func(text string) []byte) *generated {
	delta := g.Delta
	if delta <= 0 {
		delta = 4096
	}
	text := strings.Repeat(loremIpsum, delta/len(loremIpsum)+1)[:delta]
	out := &generated{at: at, full: frame(text), count: g.Bytes / delta}
	if rest := g.Bytes % delta; rest > 0 {
		out.last = frame(text[:rest])
	}
	return out
}

// write writes the generated frames; it reports whether the client still
// reads.
func (g *generated) write(write func([]byte) bool) bool {
	for range g.count {
		if !write(g.full) {
			return false
		}
	}
	return g.last == nil || write(g.last)
}
