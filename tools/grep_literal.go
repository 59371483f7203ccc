package tools

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"regexp/syntax"
)

// Literal extraction for grep's prefilters (grep_matcher.go): which bytes
// every match of a pattern must contain, and which of them to search for.

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

// isWholeFoldLiteral reports whether the whole pattern is one
// case-insensitive literal (possibly in a capture group) that lit, its
// fold-safe part, covers: then a fold match of lit is a match.
func isWholeFoldLiteral(re *syntax.Regexp, lit []byte) bool {
	l := wholeLiteral(re)
	return l != nil && l.Flags&syntax.FoldCase != 0 && len(l.Rune) == len(lit) && bytes.IndexByte(lit, '\n') < 0
}

// literalPrefix is a pattern of the form [^] lit rest, lit case-sensitive.
type literalPrefix struct {
	lineStart bool           // the pattern starts with ^ or \A
	lit       []byte         // no newline in it
	rest      *syntax.Regexp // \A followed by what comes after lit; nil when nothing does
	restASCII []asciiSet     // the rest as byte sets, when it is that simple (asciiSequence)
}

// splitLiteralPrefix splits a pattern that starts with a case-sensitive
// literal (after an optional start anchor). The rest is run on its own from
// the literal's end, so it must not look behind that point: a rest with
// another start anchor or a word boundary is refused (false).
func splitLiteralPrefix(re *syntax.Regexp) (literalPrefix, bool) {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var p literalPrefix
	if len(subs) > 0 && (subs[0].Op == syntax.OpBeginText || subs[0].Op == syntax.OpBeginLine) {
		p.lineStart, subs = true, subs[1:]
	}
	var run []rune
	for len(subs) > 0 {
		l := wholeLiteral(subs[0])
		if l == nil || l.Flags&syntax.FoldCase != 0 {
			break
		}
		run, subs = append(run, l.Rune...), subs[1:]
	}
	p.lit, _ = requiredLiteral(&syntax.Regexp{Op: syntax.OpLiteral, Rune: run})
	if len(p.lit) == 0 || bytes.IndexByte(p.lit, '\n') >= 0 {
		return literalPrefix{}, false
	}
	if len(subs) > 0 {
		for _, sub := range subs {
			if looksBehind(sub) {
				return literalPrefix{}, false
			}
		}
		p.rest = &syntax.Regexp{Op: syntax.OpConcat, Sub: append([]*syntax.Regexp{{Op: syntax.OpBeginText}}, subs...)}
		p.restASCII = asciiSequence(subs)
	}
	return p, true
}

// looksBehind reports whether re has an assertion about what precedes a
// position: a start anchor or a word boundary.
func looksBehind(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range re.Sub {
		if looksBehind(sub) {
			return true
		}
	}
	return false
}

// byteFrequencyOrder lists bytes from most to least frequent in source code
// and prose (roughly); bytes not listed count as rare.
// Digits rank with the middle letters: numeric literals, tables and test
// data make '0' and '1' more common in source code than v, k, x, j, q, z
// (so `0x[0-9a-f]{8}` jumps between x's, not 0's).
const byteFrequencyOrder = " etaoinsrlcdumhpfgbyw0123456789vkxjqz\n\t.,;:()_=\"'/-{}*<>[]&|!#+"

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

// asciiSet is a set of ASCII bytes, one bit each.
type asciiSet [2]uint64

func (s *asciiSet) has(b byte) bool { return b < 0x80 && s[b>>6]&(1<<(b&63)) != 0 }

// asciiSequence returns one byte set per byte of every match of subs when
// subs is a run of ASCII-only character classes and case-sensitive ASCII
// literals (`[0-9a-f]{8}` once simplified, `[0-9][0-9]`): then it is
// checked a byte at a time with no regexp. Nil otherwise. A byte ≥ 0x80 is
// in no set, as Go's regexp reads it as a non-ASCII rune (or U+FFFD).
func asciiSequence(subs []*syntax.Regexp) []asciiSet {
	var seq []asciiSet
	for _, sub := range subs {
		var ok bool
		if seq, ok = appendASCIISequence(seq, sub); !ok {
			return nil
		}
	}
	return seq
}

// appendASCIISequence appends re's byte sets to seq (through
// concatenations, as Simplify writes `{8}`, and capture groups); false when
// re is not that simple.
func appendASCIISequence(seq []asciiSet, re *syntax.Regexp) ([]asciiSet, bool) {
	switch re.Op {
	case syntax.OpConcat, syntax.OpCapture:
		for _, sub := range re.Sub {
			var ok bool
			if seq, ok = appendASCIISequence(seq, sub); !ok {
				return nil, false
			}
		}
		return seq, true
	case syntax.OpCharClass:
		var set asciiSet
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				set[r>>6] |= 1 << (r & 63)
			}
		}
		return append(seq, set), true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return nil, false
			}
			var set asciiSet
			set[r>>6] |= 1 << (r & 63)
			seq = append(seq, set)
		}
		return seq, true
	}
	return nil, false
}

// matchesASCIISequence reports whether b starts with bytes in seq's sets.
func matchesASCIISequence(b []byte, seq []asciiSet) bool {
	if len(b) < len(seq) {
		return false
	}
	for i := range seq {
		if !seq[i].has(b[i]) {
			return false
		}
	}
	return true
}
