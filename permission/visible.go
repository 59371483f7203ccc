package permission

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the user is shown must be what runs. A command, a path or a diff
// comes from the model (or a repository steering it), and a carriage
// return, an escape sequence, a bidi override or a zero-width character
// can make the text a person reads differ from the text that runs. Every
// front end renders approval text through Visible or VisibleLine, and the
// terminal chat its model text and tool output through VisibleOutput: the
// rule lives here, once.
//
// The classes come from the unicode package's categories, not a hand list:
// Cc (C0 and C1 controls, DEL), Cf (format characters: every bidi
// embedding, override, isolate and mark, the zero-width space and joiners,
// the BOM, the soft hyphen, the tag characters), Zl and Zp (line and
// paragraph separators) and Other_Default_Ignorable_Code_Point (the Hangul
// fillers and the other characters that render as nothing). Approval text
// also shows every space other than U+0020 (a no-break space looks like a
// space and is not one to a shell) and every variation selector.
// A literal backslash is left as it is: a command written `\r` and one
// holding a carriage return look alike, and neither hides anything.

// cutMark is what stands for the middle of a line VisibleLine shortened.
const cutMark = "…[%d characters cut]…"

// Visible renders s for an approval question: control, bidi, zero-width
// and other invisible characters are written visibly (`\r`, `\x1b`,
// `<U+202E>`, `<U+200B>`); line breaks and tabs stay, so a command of
// several lines reads as several lines. Bytes that are not UTF-8 are
// written `\xNN`. Visible of its own output is that output.
func Visible(s string) string {
	return render(s, strictClass, true)
}

// VisibleLine renders s on one line, as Visible does with line breaks and
// tabs written `\n` and `\t`. When the rendering is longer than maxRunes
// (0: no bound), its middle is cut and the cut says how many characters
// of s it stood for: the head and, longer, the tail (where `&& rm -rf ~`
// would hide) are always shown.
func VisibleLine(s string, maxRunes int) string {
	pieces := renderPieces(s, strictClass, false)
	total := 0
	for _, p := range pieces {
		total += utf8.RuneCountInString(p)
	}
	if maxRunes <= 0 || total <= maxRunes {
		return strings.Join(pieces, "")
	}
	budget := max(maxRunes-utf8.RuneCountInString(fmt.Sprintf(cutMark, len(pieces))), 2)
	// The tail gets two thirds: that is where `&& rm -rf ~` hides.
	head := max(budget/3, 1)
	tail := budget - head
	var b strings.Builder
	i, used := 0, 0
	for ; i < len(pieces); i++ {
		n := utf8.RuneCountInString(pieces[i])
		if used+n > head {
			break
		}
		b.WriteString(pieces[i])
		used += n
	}
	j, used := len(pieces), 0
	for j > i {
		n := utf8.RuneCountInString(pieces[j-1])
		if used+n > tail {
			break
		}
		j--
		used += n
	}
	fmt.Fprintf(&b, cutMark, j-i)
	b.WriteString(strings.Join(pieces[j:], ""))
	return b.String()
}

// VisibleOutput renders text a terminal prints as it comes (the model's
// answer, a tool's output): as Visible, but a no-break space or a
// variation selector (an emoji's) stays what it is. No escape sequence
// survives it: ESC itself is written `\x1b`, so CSI, OSC (a clipboard
// write with OSC 52 included) and DCS sequences are shown, never run, and
// a sequence split between two writes is harmless in either.
func VisibleOutput(s string) string {
	return render(s, outputClass, true)
}

// class tells whether a rune is written visibly.
type class func(r rune) bool

// outputClass is what is never printed raw.
func outputClass(r rune) bool {
	if r >= ' ' && r < 0x7f { // printable ASCII: most text, without a table lookup
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point)
}

// strictClass is what an approval question never shows raw.
func strictClass(r rune) bool {
	if r >= ' ' && r < 0x7f {
		return false
	}
	return outputClass(r) || (unicode.Is(unicode.Zs, r) && r != ' ') || unicode.Is(unicode.Variation_Selector, r)
}

func render(s string, hidden class, keepLines bool) string {
	if !needsRendering(s, hidden, keepLines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	eachPiece(s, hidden, keepLines, func(piece string) { b.WriteString(piece) })
	return b.String()
}

func needsRendering(s string, hidden class, keepLines bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || (hidden(r) && !(keepLines && (r == '\n' || r == '\t'))) {
			return true
		}
	}
	return false
}

// renderPieces is s as what each of its characters is shown as, one piece
// a character (or a byte that is not UTF-8), so a cut never splits an
// escape.
func renderPieces(s string, hidden class, keepLines bool) []string {
	pieces := make([]string, 0, len(s))
	eachPiece(s, hidden, keepLines, func(piece string) { pieces = append(pieces, piece) })
	return pieces
}

// eachPiece calls piece with what each character of s (or byte that is
// not UTF-8) is shown as, in order.
func eachPiece(s string, hidden class, keepLines bool, piece func(string)) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			piece(`\x` + hexDigits(uint32(s[i]), 2, lowerHex))
		case keepLines && (r == '\n' || r == '\t'):
			piece(s[i : i+size])
		case hidden(r):
			piece(escapeRune(r))
		default:
			piece(s[i : i+size])
		}
		i += size
	}
}

// escapeRune writes an invisible character: an ASCII control as Go writes
// it in a string (`\r`, `\x1b`), anything else by its code point.
func escapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x80 {
		return `\x` + hexDigits(uint32(r), 2, lowerHex)
	}
	return "<U+" + hexDigits(uint32(r), 4, upperHex) + ">"
}

const (
	lowerHex = "0123456789abcdef"
	upperHex = "0123456789ABCDEF"
)

// hexDigits is v in hexadecimal, at least width digits (fmt's %0*x costs
// most of the rendering of text full of escapes).
func hexDigits(v uint32, width int, digits string) string {
	var buf [8]byte
	i := len(buf)
	for v > 0 || len(buf)-i < width {
		i--
		buf[i] = digits[v&0xf]
		v >>= 4
	}
	return string(buf[i:])
}
