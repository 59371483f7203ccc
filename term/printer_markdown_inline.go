package term

import (
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"

	"github.com/agent-lsp/agent-lsp/permission"
)

// The styles of rendered markdown, beside the printer's own colours. They
// are the only escape sequences a rendered answer holds: no hyperlink
// (OSC 8) or anything else a link or the model's text could make the
// terminal do.
const (
	ansiItalic    = "\x1b[3m"
	ansiUnderline = "\x1b[4m"
	ansiYellow    = "\x1b[33m"
	ansiMagenta   = "\x1b[35m"
	ansiCyan      = "\x1b[36m"
)

// span is a run of text in one style ("" for plain); a span "\n" is a hard
// line break.
type span struct{ style, text string }

// visibleText is what markdown made of the model's text (backslash escapes
// undone, character references such as &#27; resolved) made visible again:
// a reference cannot smuggle in the escape that VisibleOutput took out.
func visibleText(b []byte) string {
	b = util.UnescapePunctuations(b)
	b = util.ResolveNumericReferences(b)
	b = util.ResolveEntityNames(b)
	return permission.VisibleOutput(string(b))
}

// inlineSpans appends the spans of n's inline children, in style.
func inlineSpans(n ast.Node, src []byte, style string, out []span) []span {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = inlineSpan(c, src, style, out)
	}
	return out
}

func inlineSpan(n ast.Node, src []byte, style string, out []span) []span {
	switch n := n.(type) {
	case *ast.Text:
		text := n.Value(src)
		if n.IsRaw() {
			out = append(out, span{style, permission.VisibleOutput(string(text))})
		} else {
			out = append(out, span{style, visibleText(text)})
		}
		switch {
		case n.HardLineBreak():
			out = append(out, span{"", "\n"})
		case n.SoftLineBreak():
			out = append(out, span{style, " "})
		}
	case *ast.String:
		out = append(out, span{style, visibleText(n.Value)})
	case *ast.CodeSpan:
		var b strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Value(src))
			}
		}
		out = append(out, span{style + ansiYellow, permission.VisibleOutput(b.String())})
	case *ast.Emphasis:
		emphasis := ansiItalic
		if n.Level >= 2 {
			emphasis = ansiBold
		}
		out = inlineSpans(n, src, style+emphasis, out)
	case *ast.Link:
		label := inlineSpans(n, src, style+ansiUnderline+ansiCyan, nil)
		out = append(out, label...)
		if dest := visibleText(n.Destination); dest != spansText(label) {
			out = append(out, span{style + ansiDim, " (" + dest + ")"})
		}
	case *ast.AutoLink:
		out = append(out, span{style + ansiUnderline + ansiCyan, visibleText(n.Label(src))})
	case *ast.Image:
		alt := spansText(inlineSpans(n, src, "", nil))
		out = append(out, span{style + ansiDim, "[image: " + alt + "] (" + visibleText(n.Destination) + ")"})
	case *ast.RawHTML:
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			out = append(out, span{style, permission.VisibleOutput(string(seg.Value(src)))})
		}
	default:
		out = inlineSpans(n, src, style, out)
	}
	return out
}

// spansText is the spans' text without styles.
func spansText(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
	}
	return b.String()
}

// styled writes text in style, reset after it.
func styled(b *strings.Builder, style, text string) {
	if style == "" || text == "" {
		b.WriteString(text)
		return
	}
	b.WriteString(style)
	b.WriteString(text)
	b.WriteString(ansiReset)
}

// wrapSpans lays spans out in lines of at most width columns (a word
// longer than a line keeps its own line), each starting with first, then
// rest, and ending in "\n".
func wrapSpans(spans []span, width int, first, rest string) string {
	var b strings.Builder
	prefix := first
	col := 0 // columns used after the prefix
	avail := func() int { return max(width-columns(prefix), 10) }
	startLine := func() {
		b.WriteString(prefix)
		col = 0
	}
	endLine := func() {
		b.WriteString("\n")
		prefix = rest
		col = -1 // a line must be started before text goes on it
	}
	col = -1
	space := span{} // a space waiting for the next word on the line
	for _, s := range spans {
		if s.text == "\n" && s.style == "" {
			if col < 0 {
				startLine()
			}
			endLine()
			continue
		}
		for i, word := range strings.Split(s.text, " ") {
			if i > 0 {
				space = span{s.style, " "}
			}
			if word == "" {
				continue
			}
			n := utf8.RuneCountInString(word)
			switch {
			case col < 0:
				startLine()
			case col > 0 && col+1+n > avail():
				endLine()
				startLine()
			case col > 0 && space.text != "":
				styled(&b, space.style, " ")
				col++
			}
			space = span{}
			styled(&b, s.style, word)
			col += n
		}
	}
	if col >= 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// columns is how many columns s takes: its runes, less our styles' escape
// sequences (a prefix holds a dimmed bullet or quote bar).
func columns(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] == '\x1b' {
			if end := strings.IndexByte(s[i:], 'm'); end >= 0 {
				i += end + 1
				continue
			}
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return n
}
