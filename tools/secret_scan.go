package tools

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// Whether bytes hold a credential-shaped value, without the expressions'
// own scans: each jumps between occurrences of its literal's first byte
// (bytes.Index), and "eyJ", "sk-", "gh", "npm_" start with some of the
// commonest bytes of text, so the dozen scans cost ~4 ms a MiB together
// (80 ms for the checkpoint of a 20 MiB file). Every match of a rule
// starts with its literal prefix, and has some bytes at fixed offsets
// after it (gh[pousr]_: an underscore 3 bytes in); the scan jumps between
// occurrences of a rare one of those bytes instead, one pass for all the
// rules that have that byte (_ for six of them, I for four), and runs a
// rule, anchored, only where its whole prefix is. It finds what
// FindAllIndex finds: a rule's next match is searched from the end of its
// last one, so a match the word check refuses hides the ones it overlaps,
// as there.

// secretRuleScan is one rule of secretValueRules as the scan runs it.
type secretRuleScan struct {
	prefix   string         // every match starts with it
	rare     int            // the offset in a match of the byte its group searches for
	anchored *regexp.Regexp // the rule as ^(?:rule)
	word     bool
}

// secretScanGroup is the rules whose prefixes share the byte searched for.
type secretScanGroup struct {
	rare  byte
	rules []secretRuleScan
}

var compiledSecretScans = sync.OnceValue(func() []secretScanGroup {
	fixed := make([][]byte, len(secretValueRules)) // per rule: its bytes at fixed offsets, 0 where any
	for i, r := range secretValueRules {
		fixed[i] = fixedBytes(r.re)
		if len(fixed[i]) == 0 || fixed[i][0] == 0 {
			panic("secret rule " + r.re + " starts with no literal")
		}
	}
	var groups []secretScanGroup
	for i, re := range compiledSecretRules() {
		prefix, _ := re.LiteralPrefix()
		off := sharedRareByte(fixed[i], fixed)
		r := secretRuleScan{prefix: prefix, rare: off,
			anchored: regexp.MustCompile(`^(?:` + secretValueRules[i].re + `)`), word: secretValueRules[i].word}
		g := 0
		for g < len(groups) && groups[g].rare != fixed[i][off] {
			g++
		}
		if g == len(groups) {
			groups = append(groups, secretScanGroup{rare: fixed[i][off]})
		}
		groups[g].rules = append(groups[g].rules, r)
	}
	return groups
})

// fixedBytes returns what every match of expr has at its first offsets,
// as far as they are fixed: a literal ASCII byte, or 0 for a one-byte
// class (gh[pousr]_ is g h 0 _). It stops at the first part of another
// width.
func fixedBytes(expr string) []byte {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(err)
	}
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	var out []byte
	for _, p := range parts {
		switch {
		case p.Op == syntax.OpLiteral && p.Flags&syntax.FoldCase == 0:
			for _, c := range p.Rune {
				if c >= 0x80 {
					return out
				}
				out = append(out, byte(c))
			}
		case p.Op == syntax.OpCharClass && len(p.Rune) > 0 && p.Rune[len(p.Rune)-1] < 0x80:
			out = append(out, 0)
		default:
			return out
		}
	}
	return out
}

// sharedRareByte is the offset of the byte a rule's scan searches for,
// among its fixed bytes: of those rarer than the common letters, the one
// most rules have (one pass serves them all), the rarer on a tie; with no
// such byte, its rarest.
func sharedRareByte(fixed []byte, all [][]byte) int {
	rank := func(b byte) int {
		if r := strings.IndexByte(byteFrequencyOrder, b); r >= 0 {
			return r
		}
		return len(byteFrequencyOrder)
	}
	best, bestShared, bestRank := -1, 0, 0
	for i, b := range fixed {
		if b == 0 || rank(b) < strings.IndexByte(byteFrequencyOrder, 'v') {
			continue // any byte, or a common letter
		}
		shared := 0
		for _, f := range all {
			if bytes.IndexByte(f, b) >= 0 {
				shared++
			}
		}
		if best < 0 || shared > bestShared || shared == bestShared && rank(b) > bestRank {
			best, bestShared, bestRank = i, shared, rank(b)
		}
	}
	if best >= 0 {
		return best
	}
	best = 0
	for i, b := range fixed {
		if b != 0 && rank(b) > rank(fixed[best]) {
			best = i
		}
	}
	return best
}

// found reports whether a rule of the group matches b where its word
// check allows. Each rule's candidates (where its prefix starts) come in
// order, and its next one is looked for from where FindAllIndex would
// search on.
func (g secretScanGroup) found(b []byte) bool {
	var from [8]int // per rule: where its next match may start
	if len(g.rules) > len(from) {
		panic("secretScanGroup: more rules than from holds")
	}
	fails := 0
	for at := 0; at < len(b); at++ {
		j := bytes.IndexByte(b[at:], g.rare)
		if j < 0 {
			return false
		}
		at += j
		hit := false
		for i, r := range g.rules {
			start := at - r.rare
			if start < from[i] || !bytes.HasPrefix(b[start:], []byte(r.prefix)) {
				continue
			}
			hit = true
			if m := r.anchored.FindIndex(b[start:]); m != nil {
				if !r.word || start == 0 || !isWordByte(b[start-1]) {
					return true
				}
				from[i] = start + m[1] // FindAllIndex's next search starts after the match
			}
		}
		// The byte is not rare in this text (more than one miss in 16
		// bytes): bytes.Index, which moves on to a vectorised search of
		// a whole prefix then, does better, rule by rule.
		if fails += boolInt(!hit); fails > 8 && fails > at>>4 {
			for i, r := range g.rules {
				if r.foundFrom(b, max(from[i], at-r.rare+1)) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// foundFrom is found for one rule, its candidates from offset from on.
func (r secretRuleScan) foundFrom(b []byte, from int) bool {
	for from <= len(b) {
		i := bytes.Index(b[from:], []byte(r.prefix))
		if i < 0 {
			return false
		}
		start := from + i
		m := r.anchored.FindIndex(b[start:])
		switch {
		case m == nil:
			from = start + 1
		case !r.word || start == 0 || !isWordByte(b[start-1]):
			return true
		default:
			from = start + m[1]
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
