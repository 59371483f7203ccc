package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unknownMark stands in an expanded word for text only known at run time
// (an unresolved variable, a command substitution). It cannot appear in a
// real path, so a word holding it never matches a path rule by accident.
const unknownMark = "\uFFFD"

// arg is one shell word after the expansions the detector can do without
// running anything: quotes removed, escapes resolved, known variables and
// ~ substituted, unquoted expansions split into fields.
type arg struct {
	text    string // expanded text; unresolved parts appear as unknownMark
	known   bool   // every part was resolved
	dynamic bool   // an unquoted unresolved part: at run time it may split into several words, options included
	globAt  int    // byte offset in text of the first unquoted glob metacharacter, -1 when none
	word    *syntax.Word
	src     string  // how to name a synthetic arg (word == nil) in a reason
	under   *target // synthetic: "some path found under this directory" (find -exec's {})
}

func literalArg(s string) arg { return arg{text: s, known: true, globAt: -1} }

// stdinArg is what xargs appends or substitutes: arguments read at run time.
func stdinArg() arg {
	return arg{text: unknownMark, dynamic: true, globAt: -1, src: "arguments read from stdin"}
}

// raw is the word as written in the command, for reasons shown to people.
func (x arg) raw() string {
	if x.word == nil {
		if x.src != "" {
			return x.src
		}
		return x.text
	}
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, x.word); err != nil {
		return x.text
	}
	return b.String()
}

// isOption reports whether the arg is a literal option word ("-x", "--foo").
func (x arg) isOption() bool {
	return x.known && len(x.text) > 1 && x.text[0] == '-'
}

// expander resolves words against the variables known statically.
type expander struct {
	vars map[string]string // variables whose value is known; absent = unknown
}

// expand turns one word into the fields it becomes at run time.
func (e *expander) expand(w *syntax.Word) []arg {
	variants, complete := braceVariants(w)
	var out []arg
	for _, v := range variants {
		for _, f := range e.fields(v, false) {
			f.word = w
			out = append(out, f)
		}
	}
	if !complete {
		out = append(out, arg{text: unknownMark, dynamic: true, globAt: -1, word: w})
	}
	return out
}

// expandAll expands every word of a command.
func (e *expander) expandAll(words []*syntax.Word) []arg {
	var out []arg
	for _, w := range words {
		out = append(out, e.expand(w)...)
	}
	return out
}

// single resolves a word where no field splitting happens (assignment
// values, here-documents): the result is one string.
func (e *expander) single(w *syntax.Word) arg {
	fs := e.fields(w, true)
	if len(fs) == 0 {
		return arg{known: true, globAt: -1, word: w}
	}
	f := fs[0]
	f.word = w
	return f
}

// fieldBuilder accumulates the fields of one word.
type fieldBuilder struct {
	out     []arg
	cur     strings.Builder
	known   bool
	dynamic bool
	globAt  int
	started bool // a field exists even if empty (quotes were seen)
	noSplit bool
}

func newFieldBuilder(noSplit bool) *fieldBuilder {
	return &fieldBuilder{known: true, globAt: -1, noSplit: noSplit}
}

func (b *fieldBuilder) end() {
	if b.started || b.cur.Len() > 0 {
		b.out = append(b.out, arg{text: b.cur.String(), known: b.known, dynamic: b.dynamic, globAt: b.globAt})
	}
	b.cur.Reset()
	b.known, b.dynamic, b.globAt, b.started = true, false, -1, false
}

func (b *fieldBuilder) quoted(s string) {
	b.started = true
	b.cur.WriteString(s)
}

func (b *fieldBuilder) unknown(unquoted bool) {
	b.started = true
	b.known = false
	if unquoted {
		b.dynamic = true
	}
	b.cur.WriteString(unknownMark)
}

// unquotedText adds the value of an unquoted expansion: split on IFS
// whitespace, and glob characters in it are live.
func (b *fieldBuilder) unquotedText(s string) {
	for _, r := range s {
		if !b.noSplit && (r == ' ' || r == '\t' || r == '\n') {
			b.end()
			continue
		}
		b.globChar(r)
	}
}

func (b *fieldBuilder) globChar(r rune) {
	if (r == '*' || r == '?' || r == '[') && b.globAt < 0 {
		b.globAt = b.cur.Len()
	}
	b.started = true
	b.cur.WriteRune(r)
}

func (e *expander) fields(w *syntax.Word, noSplit bool) []arg {
	b := newFieldBuilder(noSplit)
	for i, part := range w.Parts {
		e.part(b, part, i == 0)
	}
	b.end()
	return b.out
}

func (e *expander) part(b *fieldBuilder, part syntax.WordPart, first bool) {
	switch p := part.(type) {
	case *syntax.Lit:
		e.unquotedLit(b, p.Value, first)
	case *syntax.SglQuoted:
		if p.Dollar {
			b.quoted(ansiC(p.Value))
		} else {
			b.quoted(p.Value)
		}
	case *syntax.DblQuoted:
		b.started = true
		for _, q := range p.Parts {
			e.quotedPart(b, q)
		}
	case *syntax.ParamExp:
		if v, ok := e.param(p); ok {
			b.unquotedText(v)
		} else {
			b.unknown(!numericParam(p))
		}
	case *syntax.ProcSubst:
		// The word becomes a path such as /dev/fd/63 naming a pipe.
		b.quoted("/dev/fd/63")
	case *syntax.ExtGlob:
		if b.globAt < 0 {
			b.globAt = b.cur.Len()
		}
		b.quoted(p.Op.String() + p.Pattern.Value + ")")
	default: // CmdSubst, ArithmExp, BraceExp left over (sequences)
		b.unknown(true)
	}
}

func (e *expander) quotedPart(b *fieldBuilder, part syntax.WordPart) {
	switch p := part.(type) {
	case *syntax.Lit:
		b.quoted(unescapeDouble(p.Value))
	case *syntax.ParamExp:
		if v, ok := e.param(p); ok {
			b.quoted(v)
		} else {
			b.unknown(false)
		}
	default:
		b.unknown(false)
	}
}

// unquotedLit resolves backslash escapes and a leading ~, and notes glob
// characters that are not escaped.
func (e *expander) unquotedLit(b *fieldBuilder, s string, first bool) {
	if first {
		// bash expands ~ after the = of a word that looks like an
		// assignment, also as an argument: dd of=~/.bashrc.
		if name, rest, ok := strings.Cut(s, "=~"); ok && isAssignment(name+"=") && (rest == "" || strings.HasPrefix(rest, "/")) {
			if dir, known := e.vars["HOME"]; known {
				b.quoted(name + "=" + dir)
				s, first = rest, false
			}
		}
	}
	if first && strings.HasPrefix(s, "~") {
		name, rest, _ := strings.Cut(s[1:], "/")
		hasSlash := len(s) > 1+len(name)
		var dir string
		var ok bool
		switch name {
		case "":
			dir, ok = e.vars["HOME"]
		case "+":
			dir, ok = e.vars["PWD"]
		}
		if !ok {
			b.unknown(false)
		} else {
			b.quoted(dir)
		}
		if !hasSlash {
			return
		}
		b.quoted("/")
		s = rest
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			if s[i] != '\n' {
				b.quoted(string(s[i]))
			}
			continue
		}
		b.globChar(rune(c))
	}
}

// param resolves a plain $name or ${name}; anything with operators is
// treated as unknown.
func (e *expander) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 ||
		p.NestedParam != nil || len(p.Modifiers) > 0 || p.Flags != nil {
		return "", false
	}
	v, ok := e.vars[p.Param.Value]
	return v, ok
}

// numericParam reports whether a parameter always expands to one number
// ($$, $!, $?, $#, $PPID, $RANDOM, ...): unknown, but it cannot split into
// several words or hold glob characters.
func numericParam(p *syntax.ParamExp) bool {
	if p.Param == nil || p.Excl || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil ||
		p.Names != 0 || p.NestedParam != nil || len(p.Modifiers) > 0 || p.Flags != nil {
		return p.Length // ${#x} is a number too
	}
	switch p.Param.Value {
	case "$", "!", "?", "#", "PPID", "RANDOM", "LINENO", "SECONDS", "UID", "EUID", "BASHPID", "SRANDOM", "EPOCHSECONDS":
		return true
	}
	return p.Length
}
