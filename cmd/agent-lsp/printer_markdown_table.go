package main

import (
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
)

// table writes a GitHub table in columns as wide as their widest cell,
// the header bold and ruled off. A table wider than the terminal is not
// squeezed: its rows wrap as the terminal wraps them.
func (r *markdownRenderer) table(n *east.Table, first, rest string) {
	var rows [][][]span
	var aligns []east.Alignment
	for row := n.FirstChild(); row != nil; row = row.NextSibling() {
		style := ""
		if _, header := row.(*east.TableHeader); header {
			style = ansiBold
		}
		var cells [][]span
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, inlineSpans(cell, r.src, style, nil))
			if len(rows) == 0 {
				aligns = append(aligns, cell.(*east.TableCell).Alignment)
			}
		}
		rows = append(rows, cells)
	}
	widths := make([]int, len(aligns))
	for _, cells := range rows {
		for i, cell := range cells {
			if i < len(widths) {
				widths[i] = max(widths[i], columns(spansText(cell)))
			}
		}
	}
	for i, cells := range rows {
		prefix := rest
		if i == 0 {
			prefix = first
		}
		r.out.WriteString(prefix)
		for c, width := range widths {
			if c > 0 {
				styled(&r.out, ansiDim, " │ ")
			}
			var cell []span
			if c < len(cells) {
				cell = cells[c]
			}
			r.cell(cell, width, aligns[c])
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
func (r *markdownRenderer) cell(cell []span, width int, align east.Alignment) {
	pad := width - columns(spansText(cell))
	left := 0
	switch align {
	case east.AlignRight:
		left = pad
	case east.AlignCenter:
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
