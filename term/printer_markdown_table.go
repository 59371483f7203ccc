package term

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// columnAlign is how a table column is aligned (its delimiter cell:
// ":--", "--:", ":-:").
type columnAlign int

const (
	alignLeft columnAlign = iota
	alignRight
	alignCenter
)

// GitHub tables are recognised here, in a paragraph's lines, rather than
// by goldmark's table extension: its package compiles linkify's regular
// expressions at init, ~2 ms of CPU at every start of the binary, the
// daemon's included (measured: 9.2 ms per `agent-lsp version` with it,
// 6.8 ms without, 6.6 ms before goldmark).

// tableCells is a paragraph's lines as a table: its rows of cells (the
// header first) and the columns' alignments; ok is false when they are no
// table (a header row, then a delimiter row of as many cells).
func tableCells(lines []string) (rows [][]string, aligns []columnAlign, ok bool) {
	if len(lines) < 2 || !strings.Contains(lines[0], "|") {
		return nil, nil, false
	}
	header, delimiters := splitRow(lines[0]), splitRow(lines[1])
	if len(header) != len(delimiters) {
		return nil, nil, false
	}
	for _, d := range delimiters {
		dashes := strings.TrimSuffix(strings.TrimPrefix(d, ":"), ":")
		if dashes == "" || strings.Trim(dashes, "-") != "" {
			return nil, nil, false
		}
		switch {
		case strings.HasPrefix(d, ":") && strings.HasSuffix(d, ":"):
			aligns = append(aligns, alignCenter)
		case strings.HasSuffix(d, ":"):
			aligns = append(aligns, alignRight)
		default:
			aligns = append(aligns, alignLeft)
		}
	}
	rows = append(rows, header)
	for _, line := range lines[2:] {
		cells := splitRow(line)
		for len(cells) < len(header) {
			cells = append(cells, "")
		}
		rows = append(rows, cells[:len(header)])
	}
	return rows, aligns, true
}

// splitRow is a table row's cells, trimmed: split at each pipe not escaped
// by a backslash, the row's outer pipes dropped, "\|" kept as "|".
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// paragraphLines is a paragraph's source lines.
func (r *markdownRenderer) paragraphLines(n ast.Node) []string {
	var lines []string
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		lines = append(lines, strings.TrimRight(string(seg.Value(r.src)), "\r\n"))
	}
	return lines
}

// cellSpans is a cell's inline markdown as spans.
func cellSpans(cell, style string) []span {
	src := []byte(cell)
	doc := markdownParser().Parse(text.NewReader(src))
	if doc.FirstChild() == nil {
		return nil
	}
	return inlineSpans(doc.FirstChild(), src, style, nil)
}

// table writes a table in columns as wide as their widest cell, the header
// bold and ruled off. A table wider than the terminal is not squeezed: its
// rows wrap as the terminal wraps them.
func (r *markdownRenderer) table(rows [][]string, aligns []columnAlign, first, rest string) {
	cells := make([][][]span, len(rows))
	widths := make([]int, len(aligns))
	for i, row := range rows {
		style := ""
		if i == 0 {
			style = ansiBold
		}
		for c, cell := range row {
			spans := cellSpans(cell, style)
			cells[i] = append(cells[i], spans)
			widths[c] = max(widths[c], columns(spansText(spans)))
		}
	}
	for i, row := range cells {
		prefix := rest
		if i == 0 {
			prefix = first
		}
		r.out.WriteString(prefix)
		for c, width := range widths {
			if c > 0 {
				styled(&r.out, ansiDim, " │ ")
			}
			r.cell(row[c], width, aligns[c])
		}
		r.out.WriteString("\n")
		if i == 0 {
			rules := make([]string, len(widths))
			for c, width := range widths {
				rules[c] = strings.Repeat("─", width)
			}
			r.line(rest, ansiDim, strings.Join(rules, "─┼─"))
		}
	}
}

// cell writes a cell's spans padded to width, as the column is aligned.
func (r *markdownRenderer) cell(cell []span, width int, align columnAlign) {
	pad := width - columns(spansText(cell))
	left := 0
	switch align {
	case alignRight:
		left = pad
	case alignCenter:
		left = pad / 2
	}
	r.out.WriteString(strings.Repeat(" ", left))
	for _, s := range cell {
		if s.text == "\n" && s.style == "" {
			continue // a cell is one line
		}
		styled(&r.out, s.style, s.text)
	}
	r.out.WriteString(strings.Repeat(" ", pad-left))
}
