package completion

import (
	"strings"
)

// shape is where the cursor stands, as post-processing needs it.
type shape struct {
	rest    string // the cursor line after the cursor (no line break)
	after   string // the text after the cursor line
	indent  int    // width of the cursor line's indentation
	midLine bool   // rest holds more than whitespace: complete this line only
	// lead is the cursor line before the cursor when it is only
	// indentation: then the answer's first line carries the statement's
	// indentation on top of it.
	lead bool
}

func shapeOf(prefix, suffix string) shape {
	var sh shape
	line := prefix[strings.LastIndexAny(prefix, "\r\n")+1:]
	sh.indent = indentWidth(line)
	sh.lead = strings.TrimSpace(line) == ""
	sh.rest = suffix
	if i := strings.IndexAny(suffix, "\r\n"); i >= 0 {
		sh.rest = suffix[:i]
		sh.after = strings.TrimPrefix(strings.TrimPrefix(suffix[i:], "\r"), "\n")
	}
	sh.midLine = strings.TrimSpace(sh.rest) != ""
	return sh
}

// indentWidth is the leading whitespace's width in bytes: editors indent a
// file one way, so comparing widths compares levels.
func indentWidth(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

func isCloser(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return false
	}
	switch t[0] {
	case ')', ']', '}':
		return true
	}
	return t == "end" || strings.HasPrefix(t, "end ") || strings.HasPrefix(t, "end)")
}

// opensBlock reports whether a line asks for more lines (a body, an
// argument list): alone it is not a usable suggestion.
func opensBlock(line string) bool {
	t := strings.TrimRight(line, " \t")
	if t == "" {
		return false
	}
	switch t[len(t)-1] {
	case '{', '(', '[', ':', ',', '\\':
		return true
	}
	return strings.HasSuffix(t, " do") || strings.HasSuffix(t, " then") || strings.HasSuffix(t, "=>")
}

// cut is how much of the answer so far to keep, and whether it is enough
// (stop the stream). final says the answer is complete, so its last line
// is too. early (automatic triggers) stops at the first usable line;
// otherwise at the end of the block or after maxLines lines.
func (sh shape) cut(text string, final, early bool, maxLines int) (string, bool) {
	if sh.midLine {
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			return strings.TrimRight(text[:i], "\r"), true
		}
		return text, final
	}
	nonBlank := 0
	deeper := false
	off := 0
	for n := 0; off < len(text); n++ {
		i := strings.IndexByte(text[off:], '\n')
		complete := i >= 0
		end := len(text)
		if complete {
			end = off + i
		}
		line := strings.TrimRight(text[off:end], "\r")
		if !complete && !final {
			return text, false // wait for the line to end
		}
		width := indentWidth(line)
		if n == 0 {
			// The first line continues the cursor's line.
			if sh.lead {
				width += sh.indent
			} else {
				width = sh.indent
			}
		}
		blank := strings.TrimSpace(line) == ""
		switch {
		case blank:
		case n > 0 && width < sh.indent:
			return text[:max(off-1, 0)], true // dedent: the enclosing block ends
		case n > 0 && width == sh.indent && deeper && isCloser(line):
			return text[:end], true // the block opened here closed
		default:
			nonBlank++
			if width > sh.indent {
				deeper = true
			}
			if early && !opensBlock(line) && !deeper {
				return text[:end], true
			}
		}
		if n+1 >= maxLines {
			return text[:end], true
		}
		if !complete {
			return text, true
		}
		off = end + 1
	}
	return text, final
}
