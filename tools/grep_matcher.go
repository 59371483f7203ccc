package tools

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
)

// lineMatcher finds the lines of a buffer that match a pattern, grep-style
// (each line is matched on its own, without its newline). Running Go's
// regexp over every line is slow, so it first looks for candidates over the
// whole buffer with something faster and checks only the lines those land
// in:
//
//   - a literal every match must contain (the longest one in the pattern's
//     top-level concatenation): its rarest byte (rareFor: by a fixed
//     table, then by counting in the searched text) is found with the
//     SIMD-accelerated bytes.IndexByte, then the literal is compared;
//   - a case-insensitive ASCII literal: the same with the rare byte in both
//     cases (two IndexByte streams merged), then an ASCII fold compare;
//   - otherwise the pattern itself, compiled in multi-line mode, over the
//     rest of the buffer.
//
// A candidate is checked as cheaply as the pattern allows (verifyKind): not
// at all when the pattern is the literal; when the pattern starts with the
// literal (`0x[0-9a-f]{8}`, `^import \(`), by the anchor and the rest of the
// pattern run from the literal's end, which Go's regexp does in one pass
// without trying every start in the line, as ripgrep's literal
// optimisations do; otherwise by the pattern over the line.
//
// Each candidate only chooses a line to check, so a prefilter can never add
// a match; it only has to find at least one candidate in every matching line.
type lineMatcher struct {
	re   *regexp.Regexp // the pattern, applied to one line at a time
	kind candidateKind
	lit  []byte   // findLiteral: as is; findFoldLiteral: lower-cased ASCII
	rare rareByte // lit's rarest byte by a fixed table, until the data tells (adapted)
	// adapted is the rare byte chosen by counting lit's bytes in the first
	// buffer of at least rareSampleBytes the search scans (once per
	// search; set by adaptOnce, read by every scan).
	adapted   atomic.Pointer[rareByte]
	adaptOnce sync.Once
	bufRe     *regexp.Regexp // findRegex: ^ and $ match at line boundaries
	verify    verifyKind
	// verifyAfter: the pattern is [^] lit rest.
	lineStart bool           // lit must start the line
	rest      *regexp.Regexp // anchored at lit's end and run to the line's end; nil: nothing follows lit
	restASCII []asciiSet     // the rest as one byte set per byte, checked instead of rest when set
}

type candidateKind int

const (
	findLiteral candidateKind = iota
	findFoldLiteral
	findRegex
)

// verifyKind is how a candidate's line is checked.
type verifyKind int

const (
	verifyLine  verifyKind = iota // the pattern over the whole line
	verifyNone                    // the pattern is exactly lit: a candidate is a match
	verifyAfter                   // the anchor, then rest right after each candidate in the line
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
	prefix, hasPrefix := splitLiteralPrefix(tree)
	switch {
	case hasPrefix && len(prefix.lit) >= minPrefilterBytes && len(prefix.lit) >= len(lit):
		m.kind, m.lit = findLiteral, prefix.lit
		m.rare = newRareByte(m.lit, rarestByte(m.lit), false)
		m.verify, m.lineStart, m.restASCII = verifyAfter, prefix.lineStart, prefix.restASCII
		if prefix.rest == nil && !prefix.lineStart {
			m.verify = verifyNone
		}
		if prefix.rest != nil {
			if m.rest, err = regexp.Compile(prefix.rest.String()); err != nil {
				return nil, fmt.Errorf("invalid regular expression %q: %v", pattern, err)
			}
		}
	case len(lit) >= minPrefilterBytes && !fold:
		m.kind, m.lit = findLiteral, lit
		m.rare = newRareByte(lit, rarestByte(lit), false)
	case len(lit) >= minPrefilterBytes && fold:
		m.kind, m.lit = findFoldLiteral, lit
		m.rare = newRareByte(lit, rarestByte(lit), true)
		if isWholeFoldLiteral(tree, lit) {
			m.verify = verifyNone
		}
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
	cur := candidateCursor{lo: -1, up: -1, rare: m.rareFor(buf)}
	pos := 0 // always a line's start
	for pos < len(buf) {
		c := m.nextCandidate(buf, pos, &cur)
		if c < 0 {
			return
		}
		start := bytes.LastIndexByte(buf[:c], '\n') + 1
		if start >= len(buf) {
			return // an empty match after the final newline: no line there
		}
		end := len(buf)
		if j := bytes.IndexByte(buf[c:], '\n'); j >= 0 {
			end = c + j
		}
		if m.lineMatches(buf, start, c, end, &cur) {
			if !onLine(start, end) {
				return
			}
		}
		pos = end + 1
	}
}

// candidateCursor caches, across the calls of one scan, where the rare
// byte (each case of it) is next, so no stretch is searched twice; -2: no
// more.
type candidateCursor struct {
	lo, up int
	rare   rareByte // the byte searched for in this scan
}

// nextCandidate returns the first candidate position ≥ from, or -1.
func (m *lineMatcher) nextCandidate(buf []byte, from int, cur *candidateCursor) int {
	switch m.kind {
	case findLiteral:
		return m.nextLiteral(buf, from, cur.rare, &cur.lo)
	case findFoldLiteral:
		return m.nextFold(buf, from, cur.rare, &cur.lo, &cur.up)
	}
	loc := m.bufRe.FindIndex(buf[from:])
	if loc == nil {
		return -1
	}
	return from + loc[0]
}

// lineMatches checks the line [start, end) whose first candidate is at c.
func (m *lineMatcher) lineMatches(buf []byte, start, c, end int, cur *candidateCursor) bool {
	switch m.verify {
	case verifyNone:
		return true
	case verifyLine:
		return m.re.Match(buf[start:end])
	}
	if m.lineStart {
		// c is the line's first candidate: no later one starts the line.
		return c == start && m.restMatches(buf[c+len(m.lit):end])
	}
	// lit holds no newline, so a candidate before end lies within the line.
	for c >= 0 && c < end {
		if m.restMatches(buf[c+len(m.lit) : end]) {
			return true
		}
		c = m.nextCandidate(buf, c+1, cur)
	}
	return false
}

// restMatches reports whether the rest of the pattern matches at the start
// of after (the line from the literal's end).
func (m *lineMatcher) restMatches(after []byte) bool {
	switch {
	case m.restASCII != nil:
		return matchesASCIISequence(after, m.restASCII)
	case m.rest != nil:
		return m.rest.Match(after)
	}
	return true
}

// nextLiteral returns the first position ≥ from where the literal starts,
// or -1. It jumps between occurrences of the literal's rarest byte, which
// beats bytes.Index when the literal starts with a common byte.
func (m *lineMatcher) nextLiteral(buf []byte, from int, rare rareByte, next *int) int {
	n := len(m.lit)
	for {
		*next = nextByteAt(buf, rare.lo, from+rare.off, *next)
		if *next == -2 {
			return -1
		}
		start := *next - rare.off
		if start+n <= len(buf) && bytes.Equal(buf[start:start+n], m.lit) {
			return start
		}
		from = start + 1
	}
}

// nextFold returns the first position ≥ from where the fold literal starts,
// or -1. lo and up cache the next positions of the rare byte's two cases
// across calls on one buffer, so no stretch is scanned twice. Per hit only
// the stream that fell behind is advanced, and the first and last bytes are
// compared (with the ASCII case bit set) before the rest.
func (m *lineMatcher) nextFold(buf []byte, from int, rare rareByte, lo, up *int) int {
	n, off, lit := len(m.lit), rare.off, m.lit
	if rare.up == rare.lo {
		*up = -2 // not a letter: one stream
	}
	for {
		min := from + off
		if *lo != -2 && *lo < min {
			*lo = indexByteFrom(buf, rare.lo, min)
		}
		if *up != -2 && *up < min {
			*up = indexByteFrom(buf, rare.up, min)
		}
		p := *lo
		if p == -2 || (*up != -2 && *up < p) {
			p = *up
		}
		if p == -2 {
			return -1
		}
		start := p - off
		// b|0x20 is the lower case of an ASCII letter; for other bytes it
		// may conflate two, which only lets a few more through to the
		// exact comparison.
		if start+n <= len(buf) && buf[start]|0x20 == lit[0]|0x20 && buf[start+n-1]|0x20 == lit[n-1]|0x20 &&
			equalFoldASCII(buf[start:start+n], lit) {
			return start
		}
		from = start + 1
	}
}

// indexByteFrom returns the first index ≥ min of b in buf, or -2.
func indexByteFrom(buf []byte, b byte, min int) int {
	if min < len(buf) {
		if i := bytes.IndexByte(buf[min:], b); i >= 0 {
			return min + i
		}
	}
	return -2
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
