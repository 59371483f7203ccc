package tools

import "bytes"

// A checkpoint stores the text an edit leaves, and a text holding a secret
// must never reach the disk (agent's content store). One edit of a 20 MB
// file changes a line; checking the whole text again cost ~4 ms a MiB
// (a dozen expressions over every byte). SecretCheck checks only what a
// change can have added, given a text that held no secret under the
// same check.

// SecretCheck is the secret check of one moment: the vault's hidden
// values then and the credential formats. It is comparable: two checks
// are equal until the vault's values change.
type SecretCheck struct{ rd *redactor }

// CurrentSecretCheck is the check of the vault's values now.
func CurrentSecretCheck() SecretCheck { return SecretCheck{rd: currentRedactor()} }

// Holds reports whether b holds a hidden value or a credential-shaped
// value: what RedactSecretBytes would change.
func (c SecretCheck) Holds(b []byte) bool { return c.rd.contains(b) || containsSecretValue(b) }

// ChangeHolds is Holds for a text b that differs only in b[from:to] from
// one this same check found holding no secret: b[:from] is that text's
// start and b[to:] its end. It looks at no more than a change can reach:
//
//   - a hidden value is a plain string, so a new one overlaps the change:
//     it starts less than its length before to and ends after from;
//   - no credential format matches across a line break, except a PEM
//     block, which matches wherever its header line is (its body may be
//     empty), and a match's word check looks at the byte before it, a
//     line break at a line's start. Each line's matches are therefore its
//     own, and the lines the change touched are the only ones whose
//     matches can differ.
func (c SecretCheck) ChangeHolds(b []byte, from, to int) bool {
	if from < 0 || to > len(b) || from > to {
		return c.Holds(b) // not a change of b: check it all
	}
	if n := c.rd.longest(); n > 0 {
		lo, hi := max(0, from-n+1), min(len(b), to+n-1)
		if c.rd.contains(b[lo:hi]) {
			return true
		}
	}
	start := bytes.LastIndexByte(b[:from], '\n') + 1
	end := len(b)
	if i := bytes.IndexByte(b[to:], '\n'); i >= 0 {
		end = to + i + 1
	}
	return containsSecretValue(b[start:end])
}

// longest is the length of the longest hidden value (as written or
// escaped); 0 without any.
func (rd *redactor) longest() int {
	if len(rd.needles) == 0 {
		return 0
	}
	return len(rd.needles[0]) // longest first
}
