package tools

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineMatcher finds the lines of a buffer that match a pattern, grep-style
// (each line is matched on its own, without its newline). Running Go's
// regexp over every line is slow, so it first looks for candidates over the
// whole buffer with something faster and runs the regexp only on the lines
// those land in:
//
//   - a literal every match must contain (the longest one in the pattern's
//     top-level concatenation): its rarest byte is found with the
//     SIMD-accelerated bytes.IndexByte, then the literal is compared;
//   - a case-insensitive ASCII literal: the same with the rare byte in both
//     cases (two IndexByte streams merged), then an ASCII fold compare;
//   - otherwise the pattern itself, compiled in multi-line mode, over the
//     rest of the buffer.
//
// Each candidate only chooses a line to check, so a prefilter can never add
// a match; it only has to find at least one candidate in every matching line.
type lineMatcher struct {
	re       *regexp.Regexp // the pattern, applied to one line at a time
	kind     candidateKind
	lit      []byte         // findLiteral: as is; findFoldLiteral: lower-cased ASCII
	rareOff  int            // offset in lit of its rarest byte, the one searched for
	rareLo   byte           // that byte (lower case for findFoldLiteral)
	rareUp   byte           // findFoldLiteral: its upper case
	bufRe    *regexp.Regexp // findRegex: ^ and $ match at line boundaries
	complete bool           // the pattern is exactly lit (case-sensitive): a candidate is a match
}

type candidateKind int

const (
	findLiteral candidateKind = iota
	findFoldLiteral
	findRegex
)

// minPrefilterBytes: a shorter literal finds too many candidates to help.
const minPrefilterBytes = 2

// compileLineMatcher compiles an RE2 pattern; the error says what is wrong
// in words the model can act on.
func compileLineMatcher(pattern string, ignoreCase bool) (*lineMatcher, error) {
	if ignoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v (RE2 syntax: no lookaround or backreferences; escape literal ( [ { . * + ? with \\)",
			strings.TrimPrefix(pattern, "(?i)"), errorDetail(err))
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q: %v", pattern, err)
	}
	tree = tree.Simplify()
	m := &lineMatcher{re: re}

	lit, fold := requiredLiteral(tree)
	switch {
	case len(lit) >= minPrefilterBytes && !fold:
		m.kind, m.lit = findLiteral, lit
		m.rareOff = rarestByte(lit)
		m.rareLo = lit[m.rareOff]
		m.complete = isWholeLiteral(tree) && bytes.IndexByte(lit, '\n') < 0
	case len(lit) >= minPrefilterBytes && fold:
		m.kind, m.lit = findFoldLiteral, lit
		m.rareOff = rarestByte(lit)
		m.rareLo = lit[m.rareOff]
		m.rareUp = byte(unicode.ToUpper(rune(m.rareLo)))
	default:
		m.kind = findRegex
		m.bufRe, err = regexp.Compile(lineAnchored(tree).String())
		if err != nil {
			return nil, fmt.Errorf("invalid regular expression %q: %v", pattern, err)
		}
	}
	return m, nil
}

// errorDetail drops the regexp package's repetition of the pattern.
func errorDetail(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%s: `%s`", se.Code, se.Expr)
	}
	return err.Error()
}

// scan calls onLine with the bounds of every matching line, in order, until
// it returns false.
func (m *lineMatcher) scan(buf []byte, onLine func(start, end int) bool) {
	nextLo, nextUp := -1, -1 // where the rare byte (each case of it) is next; -2: no more
	pos := 0
	for pos < len(buf) {
		var c int
		switch m.kind {
		case findLiteral:
			c = m.nextLiteral(buf, pos, &nextLo)
			if c < 0 {
				return
			}
		case findFoldLiteral:
			c = m.nextFold(buf, pos, &nextLo, &nextUp)
			if c < 0 {
				return
			}
		default:
			loc := m.bufRe.FindIndex(buf[pos:])
			if loc == nil {
				return
			}
			c = pos + loc[0]
		}
		start := bytes.LastIndexByte(buf[:c], '\n') + 1
		if start >= len(buf) {
			return // an empty match after the final newline: no line there
		}
		end := len(buf)
		if j := bytes.IndexByte(buf[c:], '\n'); j >= 0 {
			end = c + j
		}
		if m.complete || m.re.Match(buf[start:end]) {
			if !onLine(start, end) {
				return
			}
		}
		pos = end + 1
	}
}

// nextLiteral returns the first position ≥ from where the literal starts,
// or -1. It jumps between occurrences of the literal's rarest byte, which
// beats bytes.Index when the literal starts with a common byte.
func (m *lineMatcher) nextLiteral(buf []byte, from int, next *int) int {
	n := len(m.lit)
	for {
		*next = nextByteAt(buf, m.rareLo, from+m.rareOff, *next)
		if *next == -2 {
			return -1
		}
		start := *next - m.rareOff
		if start+n <= len(buf) && bytes.Equal(buf[start:start+n], m.lit) {
			return start
		}
		from = start + 1
	}
}

// nextFold returns the first position ≥ from where the fold literal starts,
// or -1. lo and up cache the next positions of the rare byte's two cases
// across calls on one buffer, so no stretch is scanned twice.
func (m *lineMatcher) nextFold(buf []byte, from int, lo, up *int) int {
	n := len(m.lit)
	for {
		min := from + m.rareOff
		*lo = nextByteAt(buf, m.rareLo, min, *lo)
		if m.rareUp != m.rareLo {
			*up = nextByteAt(buf, m.rareUp, min, *up)
		} else {
			*up = -2
		}
		p := *lo
		if p == -2 || (*up != -2 && *up < p) {
			p = *up
		}
		if p == -2 {
			return -1
		}
		start := p - m.rareOff
		if start+n <= len(buf) && equalFoldASCII(buf[start:start+n], m.lit) {
			return start
		}
		from = start + 1
	}
}

// nextByteAt returns the first index ≥ min of b, reusing cached when it is
// still ahead; -2 means none.
func nextByteAt(buf []byte, b byte, min, cached int) int {
	if cached == -2 || cached >= min {
		return cached
	}
	if min >= len(buf) {
		return -2
	}
	i := bytes.IndexByte(buf[min:], b)
	if i < 0 {
		return -2
	}
	return min + i
}

// equalFoldASCII compares s with lower, which is already lower-case ASCII.
func equalFoldASCII(s, lower []byte) bool {
	for i, b := range s {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}

// requiredLiteral returns a literal that every match of re contains, the
// longest it can find, and whether it is to be compared case-insensitively
// (then it is lower-cased ASCII). Empty when there is none.
func requiredLiteral(re *syntax.Regexp) ([]byte, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return foldSafeLiteral(re.Rune), true
		}
		for _, r := range re.Rune {
			// Go's regexp reads an invalid UTF-8 byte as U+FFFD, which no
			// byte search for U+FFFD's encoding would find.
			if r == utf8.RuneError {
				return nil, false
			}
		}
		return []byte(string(re.Rune)), false
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []byte
		bestFold := false
		consider := func(lit []byte, fold bool) {
			// A case-sensitive literal filters better than a folded one
			// of the same length.
			if len(lit) > len(best) || (len(lit) == len(best) && bestFold && !fold && len(lit) > 0) {
				best, bestFold = lit, fold
			}
		}
		// Adjacent literals join into a longer one: `(err) != nil` has
		// "err != nil", not just " != nil".
		var run []rune
		runFold := false
		flush := func() {
			if len(run) > 0 {
				consider(requiredLiteral(&syntax.Regexp{Op: syntax.OpLiteral, Rune: run, Flags: foldFlag(runFold)}))
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if lit := wholeLiteral(sub); lit != nil {
				fold := lit.Flags&syntax.FoldCase != 0
				if len(run) > 0 && fold != runFold {
					flush()
				}
				run, runFold = append(run, lit.Rune...), fold
				continue
			}
			flush()
			consider(requiredLiteral(sub))
		}
		flush()
		return best, bestFold
	}
	return nil, false
}

// wholeLiteral returns the literal node re is made of (through capture
// groups), or nil.
func wholeLiteral(re *syntax.Regexp) *syntax.Regexp {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpLiteral {
		return re
	}
	return nil
}

func foldFlag(fold bool) syntax.Flags {
	if fold {
		return syntax.FoldCase
	}
	return 0
}

// foldSafeLiteral returns the longest run of runes that fold only to ASCII
// (so a byte search in both ASCII cases finds every match), lower-cased.
// 'k' and 's' are out: they also fold to the Kelvin sign and the long s.
func foldSafeLiteral(runes []rune) []byte {
	var best, cur []byte
	for _, r := range runes {
		if asciiFoldOnly(r) {
			cur = append(cur, byte(unicode.ToLower(r)))
			if len(cur) > len(best) {
				best = cur
			}
			continue
		}
		cur = nil
	}
	return best
}

func asciiFoldOnly(r rune) bool {
	if r >= utf8.RuneSelf {
		return false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// isWholeLiteral reports whether the whole pattern is one case-sensitive
// literal (possibly in a capture group).
func isWholeLiteral(re *syntax.Regexp) bool {
	lit := wholeLiteral(re)
	return lit != nil && lit.Flags&syntax.FoldCase == 0
}

// lineAnchored rewrites text anchors (^, $, \A, \z) as line anchors, so the
// pattern can run over a whole buffer and still match where it would match
// inside a single line.
func lineAnchored(re *syntax.Regexp) *syntax.Regexp {
	switch re.Op {
	case syntax.OpBeginText:
		return &syntax.Regexp{Op: syntax.OpBeginLine, Flags: re.Flags}
	case syntax.OpEndText:
		return &syntax.Regexp{Op: syntax.OpEndLine, Flags: re.Flags}
	}
	cp := *re
	cp.Sub = make([]*syntax.Regexp, len(re.Sub))
	for i, sub := range re.Sub {
		cp.Sub[i] = lineAnchored(sub)
	}
	return &cp
}

// byteFrequencyOrder lists bytes from most to least frequent in source code
// and prose (roughly); bytes not listed count as rare.
const byteFrequencyOrder = " etaoinsrlcdumhpfgbywvkxjqz\n\t.,;:()_=\"'/-{}*0123456789<>[]&|!#+"

// rarestByte returns the offset in lit of its least frequent byte, to make
// the byte search jump as far as possible between candidates.
func rarestByte(lit []byte) int {
	best, bestRank := 0, -1
	for i, b := range lit {
		rank := strings.IndexByte(byteFrequencyOrder, b)
		if rank < 0 {
			rank = len(byteFrequencyOrder)
		}
		if rank > bestRank {
			best, bestRank = i, rank
		}
	}
	return best
}
