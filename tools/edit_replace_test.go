package tools

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// wholeReplaceText is replaceText as it was before planReplace: the text
// \n-normalized, replaced and made \r\n again with whole copies. The new
// one must give the same results.
func wholeReplaceText(text, old, new string, all bool) (string, []int, error) {
	crlf := isCRLF(text)
	if crlf || !strings.Contains(text, "\r") {
		text = strings.ReplaceAll(text, "\r\n", "\n")
		old = strings.ReplaceAll(old, "\r\n", "\n")
		new = strings.ReplaceAll(new, "\r\n", "\n")
	}
	var offsets []int
	for start := 0; ; {
		i := strings.Index(text[start:], old)
		if i < 0 {
			break
		}
		offsets = append(offsets, start+i)
		start += i + len(old)
	}
	lines := make([]int, len(offsets))
	line, prev := 1, 0
	for i, off := range offsets {
		line += strings.Count(text[prev:off], "\n")
		lines[i], prev = line, off
	}
	switch {
	case len(offsets) == 0:
		return "", nil, wholeNotMatchedError(text, old)
	case len(offsets) > 1 && !all:
		return "", nil, fmt.Errorf("found %d matches of old_string at lines %s; add more context or set replace_all",
			len(offsets), joinInts(lines, maxListedMatches))
	}
	after := strings.Replace(text, old, new, len(offsets))
	endsNL := strings.HasSuffix(text, "\n")
	switch {
	case endsNL && after != "" && !strings.HasSuffix(after, "\n"):
		after += "\n"
	case !endsNL && strings.HasSuffix(after, "\n"):
		after = strings.TrimSuffix(after, "\n")
	}
	if after == text {
		return "", nil, errors.New("the edit changes nothing: old_string and new_string differ only in line endings or the final newline, which are kept as the file has them")
	}
	if crlf {
		after = strings.ReplaceAll(after, "\n", "\r\n")
	}
	return after, lines, nil
}

var wholeLineNumberPrefix = regexp.MustCompile(`(?m)^\s*\d+\t`)

func wholeNotMatchedError(text, old string) error {
	const base = "old_string not found"
	if wholeLineNumberPrefix.MatchString(old) && !wholeLineNumberPrefix.MatchString(text) {
		return errors.New(base + "; it seems to include read_file's line-number prefixes: copy only the text after the tab")
	}
	first := ""
	for _, l := range strings.Split(old, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			first = t
			break
		}
	}
	if first != "" {
		var at []string
		for i, l := range strings.Split(text, "\n") {
			if strings.Contains(l, first) {
				at = append(at, strconv.Itoa(i+1))
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

// Random texts of few characters, line breaks of every kind included,
// replaced at random: the same text, lines and errors as the whole-copy
// version, and is() says yes to the result and no to the text before.
func TestReplaceTextSameAsWholeCopies(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	alphabet := []string{"a", "b", "\n", "\r\n", "\r", " ", "\t", "1"}
	gen := func(n int, crlf bool) string {
		var b strings.Builder
		for range n {
			p := alphabet[rng.IntN(len(alphabet))]
			if crlf && p == "\n" {
				p = "\r\n"
			}
			b.WriteString(p)
		}
		return b.String()
	}
	for i := 0; i < 20000; i++ {
		crlf := i%2 == 0 // half the files have \r\n breaks only (or lone \r)
		text := gen(rng.IntN(16), crlf)
		old := gen(1+rng.IntN(4), false)
		if rng.IntN(3) == 0 && len(text) > 0 { // often a piece of the text
			a := rng.IntN(len(text))
			old = strings.ReplaceAll(text[a:min(len(text), a+1+rng.IntN(4))], "\r\n", "\n")
		}
		new := gen(rng.IntN(4), false)
		all := rng.IntN(2) == 0
		got, gotLines, gotErr := replaceText(text, old, new, all)
		want, wantLines, wantErr := wholeReplaceText(text, old, new, all)
		if got != want || fmt.Sprint(gotLines) != fmt.Sprint(wantLines) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("replaceText(%q, %q, %q, %v) = %q %v %v, want %q %v %v",
				text, old, new, all, got, gotLines, gotErr, want, wantLines, wantErr)
		}
		if gotErr != nil {
			continue
		}
		r, _ := planReplace(text, old, new, all)
		if !r.is(got) || r.is(text) || (len(got) > 0 && r.is(got[:len(got)-1]+"?")) {
			t.Fatalf("is: wrong for replaceText(%q, %q, %q, %v) = %q", text, old, new, all, got)
		}
	}
}

func TestHasLineNumberPrefix(t *testing.T) {
	for s, want := range map[string]bool{
		"     1\talpha": true, "12\tx": true, "a\n  3\tb": true, "\t7\t": true, "\r\n 4\tx": true,
		"alpha": false, "1 x": false, "12": false, "x 1\ty": false, "\t\tfoo": false, "": false,
	} {
		if got := hasLineNumberPrefix(s); got != want || got != wholeLineNumberPrefix.MatchString(s) {
			t.Errorf("hasLineNumberPrefix(%q) = %v, want %v", s, got, want)
		}
	}
}
