package term

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/agent-lsp/agent-lsp/permission"
)

// markdownParser is CommonMark, built on first use: only a chat that
// renders pays for it. GitHub's tables are found in paragraphs
// (tableCells), not by goldmark's extension package (see there why).
var markdownParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New().Parser()
})

// renderMarkdown is source (already visible text) rendered for a terminal
// width columns wide, ending in "\n" ("" for no blocks).
func renderMarkdown(source string, width int) string {
	src := []byte(source)
	r := &markdownRenderer{src: src, width: max(width, 20)}
	r.blocks(markdownParser().Parse(text.NewReader(src)), "", "", false)
	return r.out.String()
}

type markdownRenderer struct {
	src   []byte
	width int
	out   strings.Builder
}

// blocks renders parent's child blocks: the first line with first, the
// others with rest; set apart by blank lines unless tight (a tight list's
// item).
func (r *markdownRenderer) blocks(parent ast.Node, first, rest string, tight bool) {
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		if c != parent.FirstChild() {
			if !tight {
				r.out.WriteString(strings.TrimRight(rest, " ") + "\n")
			}
			first = rest
		}
		r.block(c, first, rest)
	}
}

func (r *markdownRenderer) block(n ast.Node, first, rest string) {
	switch n := n.(type) {
	case *ast.Paragraph:
		if rows, aligns, ok := tableCells(r.paragraphLines(n)); ok {
			r.table(rows, aligns, first, rest)
			return
		}
		r.out.WriteString(wrapSpans(inlineSpans(n, r.src, "", nil), r.wrapWidth(), first, rest))
	case *ast.TextBlock:
		r.out.WriteString(wrapSpans(inlineSpans(n, r.src, "", nil), r.wrapWidth(), first, rest))
	case *ast.Heading:
		style := ansiBold
		if n.Level <= 2 {
			style += ansiMagenta
		}
		if n.Level == 1 {
			style += ansiUnderline
		}
		r.out.WriteString(wrapSpans(inlineSpans(n, r.src, style, nil), r.wrapWidth(), first, rest))
	case *ast.Blockquote:
		bar := ansiDim + "│" + ansiReset + " "
		r.blocks(n, first+bar, rest+bar, false)
	case *ast.List:
		r.list(n, first, rest)
	case *ast.FencedCodeBlock:
		fence := "```" + permission.VisibleOutput(string(n.Language(r.src)))
		r.line(first, ansiDim, fence)
		r.codeLines(n, rest)
		r.line(rest, ansiDim, "```")
	case *ast.CodeBlock:
		r.codeLines(n, first)
	case *ast.ThematicBreak:
		r.line(first, ansiDim, strings.Repeat("─", min(r.width, 40)))
	case *ast.HTMLBlock:
		r.rawLines(n, first, "")
	default:
		r.blocks(n, first, rest, false)
	}
}

// wrapWidth is the width text is wrapped to: the terminal's, less a column
// so that a full line does not wrap on terminals that wrap at the edge.
func (r *markdownRenderer) wrapWidth() int { return r.width - 1 }

func (r *markdownRenderer) line(prefix, style, s string) {
	r.out.WriteString(prefix)
	styled(&r.out, style, s)
	r.out.WriteString("\n")
}

// codeLines writes a code block's lines as they are (never wrapped, so
// they copy as written), made visible.
func (r *markdownRenderer) codeLines(n ast.Node, prefix string) {
	r.rawLines(n, prefix, ansiYellow)
}

func (r *markdownRenderer) rawLines(n ast.Node, prefix, style string) {
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := strings.TrimRight(string(seg.Value(r.src)), "\n")
		r.line(prefix, style, permission.VisibleOutput(line))
	}
}

// list writes a list's items with their bullets or numbers (an ordered
// list keeps its start: a list split across streamed blocks counts on).
func (r *markdownRenderer) list(n *ast.List, first, rest string) {
	number := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := "• "
		if n.IsOrdered() {
			marker = fmt.Sprintf("%d%c ", number, n.Marker)
			number++
		}
		if item != n.FirstChild() {
			if !n.IsTight {
				r.out.WriteString(strings.TrimRight(rest, " ") + "\n")
			}
			first = rest
		}
		indent := strings.Repeat(" ", utf8.RuneCountInString(marker))
		r.blocks(item, first+ansiDim+marker+ansiReset, rest+indent, n.IsTight)
	}
}
