package tools

import (
	"bytes"
	"regexp"
	"sync"
)

// Whether bytes hold a credential-shaped value, without the expressions'
// own scans: each jumps between occurrences of its literal's first byte
// (bytes.Index), and "eyJ", "sk-", "gh", "npm_" start with some of the
// commonest bytes of text, so the dozen scans cost ~4 ms a MiB together
// (80 ms for the checkpoint of a 20 MiB file). Every match of a rule
// starts with its literal prefix; the scan jumps between occurrences of
// the prefix's rarest byte instead (J, k, _, K, :), and runs the rule,
// anchored, only where the whole prefix is. It finds what FindAllIndex
// finds: a rule's next match is searched from the end of its last one, so
// a match the word check refuses hides the ones it overlaps, as there.

// secretRuleScan is one rule of secretValueRules as the scan runs it.
type secretRuleScan struct {
	prefix   string         // every match starts with it
	rare     int            // the offset in prefix of the byte searched for
	anchored *regexp.Regexp // the rule as ^(?:rule)
	word     bool
}

var compiledSecretScans = sync.OnceValue(func() []secretRuleScan {
	scans := make([]secretRuleScan, len(secretValueRules))
	for i, re := range compiledSecretRules() {
		prefix, _ := re.LiteralPrefix()
		if prefix == "" {
			panic("secret rule " + secretValueRules[i].re + " has no literal prefix")
		}
		scans[i] = secretRuleScan{prefix: prefix, rare: rarestByte([]byte(prefix)),
			anchored: regexp.MustCompile(`^(?:` + secretValueRules[i].re + `)`), word: secretValueRules[i].word}
	}
	return scans
})

// found reports whether the rule matches b where its word check allows.
func (r secretRuleScan) found(b []byte) bool {
	var fails int
	for from := 0; ; {
		i := r.next(b, from, &fails)
		if i < 0 {
			return false
		}
		m := r.anchored.FindIndex(b[i:])
		if m == nil {
			from = i + 1
			continue
		}
		if !r.word || i == 0 || !isWordByte(b[i-1]) {
			return true
		}
		from = i + m[1] // FindAllIndex's next search starts after the match
	}
}

// next is where the prefix next occurs in b at or after from; -1: nowhere.
// fails counts the rare byte's occurrences that were not the prefix: when
// they come more often than once in 16 bytes, the rare byte is not rare in
// this text, and bytes.Index (which moves on to a vectorised search of the
// whole prefix in that case) does better.
func (r secretRuleScan) next(b []byte, from int, fails *int) int {
	prefix := []byte(r.prefix)
	if *fails > 8 && *fails > from>>4 {
		if i := bytes.Index(b[from:], prefix); i >= 0 {
			return from + i
		}
		return -1
	}
	rare := r.prefix[r.rare]
	for at := from + r.rare; at < len(b); at++ {
		j := bytes.IndexByte(b[at:], rare)
		if j < 0 {
			return -1
		}
		at += j
		if start := at - r.rare; bytes.HasPrefix(b[start:], prefix) {
			return start
		}
		if *fails++; *fails > 8 && *fails > at>>4 {
			return r.next(b, at-r.rare+1, fails)
		}
	}
	return -1
}
