package term

import (
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// markdownStream shows a streaming answer as rendered markdown, block by
// block: a block is printed once it is complete (a blank line outside a
// code fence ends a paragraph, list or quote; a closing fence ends a code
// block), the rest when the answer ends. What it is given has been through
// permission.VisibleOutput already; what it prints is that text, made
// visible once more after markdown resolved its escapes and character
// references (visibleText), and our own styles. A block is printed once:
// pending holds only what has not been.
type markdownStream struct {
	out   io.Writer
	width func() int // the terminal's columns now (it may be resized mid-answer)

	pending []byte // text received and not yet rendered
	scanned int    // how much of pending is whole lines already looked at
	fence   string // the marker of the code fence open at scanned ("```", "~~~~"), "" outside one
	printed bool   // a block of this answer was printed: the next is set off by a blank line
}

func newMarkdownStream(out io.Writer, width func() int) *markdownStream {
	return &markdownStream{out: out, width: width}
}

// write takes an answer delta and prints the blocks it completes. Each line
// is looked at once, so a long block costs no more than its length.
func (m *markdownStream) write(s string) {
	m.pending = append(m.pending, s...)
	end := m.scan()
	if end == 0 {
		return
	}
	block := string(m.pending[:end])
	m.pending = append(m.pending[:0], m.pending[end:]...)
	m.scanned -= end
	m.print(block)
}

// scan looks at the whole lines of pending not looked at yet and returns
// how much of pending is whole blocks (0 for none yet): up to the last
// blank line outside a code fence, or the last closing fence.
func (m *markdownStream) scan() int {
	end := 0
	for {
		nl := bytes.IndexByte(m.pending[m.scanned:], '\n')
		if nl < 0 {
			return end
		}
		line := string(m.pending[m.scanned : m.scanned+nl])
		m.scanned += nl + 1
		switch {
		case m.fence != "":
			if closesFence(line, m.fence) {
				m.fence = ""
				end = m.scanned
			}
		case opensFence(line) != "":
			m.fence = opensFence(line)
		case strings.TrimSpace(line) == "":
			end = m.scanned
		}
	}
}

// flush prints what is left of the answer: the answer ended, or something
// else (a tool call, an error, a control line) is about to be shown below it.
func (m *markdownStream) flush() {
	block := string(m.pending)
	m.pending, m.scanned, m.fence = m.pending[:0], 0, ""
	m.print(block)
	m.printed = false // what comes next starts afresh
}

func (m *markdownStream) print(source string) {
	if strings.TrimSpace(source) == "" {
		return
	}
	rendered := renderMarkdown(source, m.width())
	if rendered == "" {
		return
	}
	if m.printed {
		io.WriteString(m.out, "\n")
	}
	io.WriteString(m.out, rendered)
	m.printed = true
}

// opensFence is the fence marker a line opens (three or more backticks or
// tildes after any indentation: a fence inside a list item is indented),
// else "".
func opensFence(line string) string {
	trimmed := strings.TrimLeft(line, " \t")
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(trimmed) && trimmed[n] == c {
			n++
		}
		if n >= 3 && (c == '~' || !strings.Contains(trimmed[n:], "`")) {
			return trimmed[:n]
		}
	}
	return ""
}

// closesFence reports whether line closes the fence opened by marker: the
// same character, at least as many, and nothing after but spaces.
func closesFence(line, marker string) bool {
	trimmed := strings.TrimSpace(line)
	return len(trimmed) >= len(marker) && strings.Trim(trimmed, marker[:1]) == ""
}

// renderMarkdown makes the printer show answers as rendered markdown, on
// a terminal width() columns wide.
func (p *printer) renderMarkdown(width func() int) {
	p.markdown = newMarkdownStream(p.answer, width)
}

// writeAnswer shows visible answer text: rendered block by block, or as
// it streams.
func (p *printer) writeAnswer(visible string) {
	if p.markdown == nil {
		p.write(p.answer, visible)
		return
	}
	if p.midLine {
		p.freshLine(p.answer)
	}
	p.markdown.write(visible)
}

// flushMarkdown shows what is left of a rendered answer before anything
// else is shown below it.
func (p *printer) flushMarkdown() {
	if p.markdown != nil {
		p.markdown.flush()
	}
}

// terminalWidth is out's width in columns, asked at each block so that a
// resized terminal is followed; 80 when it cannot be told.
func terminalWidth(out io.Writer) func() int {
	return func() int {
		if f, ok := out.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				return w
			}
		}
		return 80
	}
}
