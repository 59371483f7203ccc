package permission

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A run_bash rule compares words, never text: the command is parsed as
// bash and matches only when it is one simple command (no list, pipe,
// subshell, redirection, assignment or background) whose every word is a
// literal, so "go test ./... ; curl x | sh" or "go test $(curl x)" never
// match a "go test *" rule, whatever the risk engine says of them.

// maxRuleCommand bounds the commands parsed for a rule: longer ones are
// asked (and the danger detector parses them anyway).
const maxRuleCommand = 8 << 10

// simpleCommand returns the words of command when it is one simple
// command of literal words.
func simpleCommand(command string) ([]string, bool) {
	if len(command) > maxRuleCommand {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	if st.Negated || st.Background || st.Coprocess || st.Disown || len(st.Redirs) > 0 {
		return nil, false
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		s, ok := literalWord(w)
		if !ok {
			return nil, false
		}
		words = append(words, s)
	}
	return words, true
}

// literalWord is a word's value when nothing in it expands: plain text
// (without backslashes, globs or a leading ~), single quotes, double
// quotes around plain text.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\*?[{") || (i == 0 && strings.HasPrefix(p.Value, "~")) {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok || strings.Contains(lit.Value, "\\") {
					return "", false
				}
				b.WriteString(lit.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// patternWords parses a rule's command pattern: literal words, the last
// one an unquoted "*" for a prefix rule.
func patternWords(pattern string) ([]string, bool, error) {
	prefix := false
	if p, ok := strings.CutSuffix(pattern, " *"); ok {
		pattern, prefix = p, true
	}
	words, ok := simpleCommand(pattern)
	if !ok || len(words) == 0 {
		return nil, false, errors.New("a run_bash pattern is one simple command of literal words, optionally ending in \" *\"")
	}
	return words, prefix, nil
}

// wordsMatch reports whether a command's words are exactly words, or
// start with them when prefix.
func wordsMatch(got, words []string, prefix bool) bool {
	if len(got) < len(words) || (!prefix && len(got) != len(words)) {
		return false
	}
	for i, w := range words {
		if got[i] != w {
			return false
		}
	}
	return true
}

// quoteWords writes words back as a command that parses to them.
func quoteWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return ""
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}
