package tools

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// replacement is one edit_file replacement found in a text, not yet made:
// the text after it can be built (build) or compared with a text that may
// be it (is) without building it. Matching and line counting scan the
// text without copying it; the one copy is the text after the edit.
type replacement struct {
	text, old, new string
	offsets        []int // where old matches text, in order
	lines          []int // the 1-based line of each match
	// nl is the text's line break, \n or \r\n; fix says what the final
	// newline rule does to the text the replacement makes: +1 adds nl,
	// -1 cuts it, 0 nothing.
	nl  string
	fix int
	// normalized is set for a \r\n file matched on a \n copy (the rare
	// case where old_string has a lone \r): text is that copy, and the
	// result is made \r\n again.
	normalized bool
}

// planReplace finds the replacement of old by new (every occurrence when
// all) in text, with the line-ending and final-newline rules of
// NewEditFile. The model writes \n whatever the file uses: in a file whose
// breaks are all \r\n, old and new are matched with \r\n.
func planReplace(text, old, new string, all bool) (replacement, error) {
	r := replacement{nl: "\n"}
	crlf := isCRLF(text)
	if crlf || strings.IndexByte(text, '\r') < 0 {
		old = strings.ReplaceAll(old, "\r\n", "\n")
		new = strings.ReplaceAll(new, "\r\n", "\n")
	}
	switch {
	case crlf && strings.IndexByte(old, '\r') < 0:
		// Every \n of text follows a \r: old with each \n made \r\n
		// matches text exactly where old matches text with \r\n made \n.
		old, new, r.nl = toCRLF(old), toCRLF(new), "\r\n"
	case crlf:
		// A lone \r in old could match the \r of a line break in text but
		// not in the \n copy the rule is defined on: match on that copy.
		text, r.normalized = strings.ReplaceAll(text, "\r\n", "\n"), true
	}
	r.text, r.old, r.new = text, old, new
	find := newOldStringFinder(old)
	for start := 0; ; {
		i := find.next(text, start)
		if i < 0 {
			break
		}
		r.offsets = append(r.offsets, i)
		start = i + len(old)
	}
	r.lines = make([]int, len(r.offsets))
	line, prev := 1, 0
	for i, off := range r.offsets { // incrementally: replace_all may match thousands of times
		line += strings.Count(text[prev:off], "\n")
		r.lines[i], prev = line, off
	}
	switch {
	case len(r.offsets) == 0:
		return r, notMatchedError(text, old)
	case len(r.offsets) > 1 && !all:
		return r, fmt.Errorf("found %d matches of old_string at lines %s; add more context or set replace_all",
			len(r.offsets), joinInts(r.lines, maxListedMatches))
	}
	endsNL := strings.HasSuffix(text, "\n")
	last := r.lastPiece()
	switch {
	case endsNL && last != "" && !strings.HasSuffix(last, "\n"):
		r.fix = 1
	case !endsNL && strings.HasSuffix(last, "\n"):
		r.fix = -1
	}
	if r.same(text) {
		return r, errors.New("the edit changes nothing: old_string and new_string differ only in line endings or the final newline, which are kept as the file has them")
	}
	return r, nil
}

// replaceText applies one edit_file replacement to a file's text (see
// planReplace) and returns the new text and the lines of the matches.
func replaceText(text, old, new string, all bool) (string, []int, error) {
	r, err := planReplace(text, old, new, all)
	if err != nil {
		return "", nil, err
	}
	return r.build(), r.lines, nil
}

// toCRLF makes every \n of s (which has no \r\n) a \r\n.
func toCRLF(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// pieces calls f with the pieces of the text the replacement makes, in
// order, before the final newline rule.
func (r replacement) pieces(f func(string)) {
	prev := 0
	for _, off := range r.offsets {
		f(r.text[prev:off])
		f(r.new)
		prev = off + len(r.old)
	}
	f(r.text[prev:])
}

// lastPiece is the last non-empty piece ("" when there is none).
func (r replacement) lastPiece() string {
	last := ""
	r.pieces(func(p string) {
		if p != "" {
			last = p
		}
	})
	return last
}

// size is the length of the pieces together.
func (r replacement) size() int {
	return len(r.text) + len(r.offsets)*(len(r.new)-len(r.old))
}

// build returns the text the replacement makes.
func (r replacement) build() string {
	var b strings.Builder
	b.Grow(r.size() + len(r.nl))
	r.pieces(func(p string) { b.WriteString(p) })
	switch r.fix {
	case 1:
		b.WriteString(r.nl) // within the capacity grown: no copy
	case -1:
		return r.finish(b.String()[:r.size()-len(r.nl)])
	}
	return r.finish(b.String())
}

// finish turns the text built on a \n copy back to \r\n.
func (r replacement) finish(s string) string {
	if r.normalized {
		return toCRLF(s)
	}
	return s
}

// is reports whether s is the text the replacement makes, comparing it
// piece by piece rather than building that text.
func (r replacement) is(s string) bool {
	if r.normalized {
		return s == r.build()
	}
	return r.same(s)
}

// same is is before finish: s against the text made on r.text.
func (r replacement) same(s string) bool {
	want := r.size() + r.fix*len(r.nl)
	if len(s) != want {
		return false
	}
	core := min(want, r.size()) // the bytes the pieces give
	at, same := 0, true
	r.pieces(func(p string) {
		if n := min(len(p), core-at); same && n > 0 {
			same = s[at:at+n] == p[:n]
			at += n
		}
	})
	return same && s[core:] == r.nl[:want-core]
}

// notMatchedError explains a failed match with the likeliest cause. It
// goes over the text line by line without splitting it (a large file
// would be a slice of every line).
func notMatchedError(text, old string) error {
	const base = "old_string not found"
	if hasLineNumberPrefix(old) && !hasLineNumberPrefix(text) {
		return errors.New(base + "; it seems to include read_file's line-number prefixes: copy only the text after the tab")
	}
	first := ""
	for l := range strings.Lines(old) {
		if t := strings.TrimSpace(l); t != "" {
			first = t
			break
		}
	}
	if first != "" {
		var at []string
		n := 0
		for l := range strings.Lines(text) {
			n++
			if strings.Contains(l, first) {
				at = append(at, strconv.Itoa(n))
				if len(at) == 5 {
					break
				}
			}
		}
		if len(at) > 0 {
			return fmt.Errorf("%s; its first line appears at line(s) %s, so check indentation, whitespace and the lines after it (read the file again to copy the exact text)",
				base, strings.Join(at, ", "))
		}
	}
	return errors.New(base + "; read the file again and copy the exact current text")
}

// hasLineNumberPrefix reports whether a line of s looks like read_file's
// output: blanks, a number, a tab (the regexp (?m)^\s*\d+\t, line by line,
// without running a regexp over a whole file).
func hasLineNumberPrefix(s string) bool {
	for l := range strings.Lines(s) {
		l = strings.TrimLeft(l, " \t\f\r\n")
		digits := len(l) - len(strings.TrimLeft(l, "0123456789"))
		if digits > 0 && digits < len(l) && l[digits] == '\t' {
			return true
		}
	}
	return false
}
