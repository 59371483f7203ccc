package agent

import "strings"

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
