package agent

import (
	"runtime/debug"
	"strings"
)

// Pages of a pagedText grow from firstPage to lastPage bytes.
const (
	firstPage = 512
	lastPage  = 64 << 10
)

// pagedText accumulates a streamed text in pieces, never copying what it
// holds to grow: a builder that grows by copying allocates about five times
// a long answer (append grows large slices by a quarter) and holds two
// copies at each growth. String makes the one copy the history keeps.
type pagedText struct {
	pages [][]byte
	n     int
}

// WriteString appends s.
func (p *pagedText) WriteString(s string) {
	p.n += len(s)
	for len(s) > 0 {
		last := len(p.pages) - 1
		if last < 0 || len(p.pages[last]) == cap(p.pages[last]) {
			size := firstPage
			if last >= 0 {
				size = min(lastPage, 2*cap(p.pages[last]))
			}
			p.pages = append(p.pages, make([]byte, 0, size))
			last++
		}
		page := p.pages[last]
		k := min(cap(page)-len(page), len(s))
		p.pages[last] = append(page, s[:k]...)
		s = s[k:]
	}
}

// Len is the number of bytes written.
func (p *pagedText) Len() int { return p.n }

// String returns the text written, in one allocation of its size.
func (p *pagedText) String() string {
	var b strings.Builder
	b.Grow(p.n)
	for _, page := range p.pages {
		b.Write(page)
	}
	return b.String()
}

// collectedAnswer is the answer size from which the accumulator's pages
// are collected as soon as the history holds the answer's text. Until a
// collection, the garbage collector counts them live: at the end of an
// answer of 8 MiB the heap holds it twice (pages and text), and the next
// collection is set for twice that, four times the answer; collected at
// once, the next is set for twice the answer.
const collectedAnswer = 1 << 20

// release drops the turn's text once its message holds it, and for a long
// answer collects it at once and gives the memory back (a few
// milliseconds, once per such answer).
func (t *turn) release() {
	n := t.size
	t.text, t.reasoning = pagedText{}, pagedText{}
	for i := range t.calls {
		t.calls[i].args = pagedText{}
	}
	if n >= collectedAnswer {
		debug.FreeOSMemory()
	}
}
