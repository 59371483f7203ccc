package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// findNonFilters are find primaries that do not narrow which files match.
var findNonFilters = set("-print", "-print0", "-ls", "-depth", "-xdev", "-mount", "-follow",
	"-noleaf", "-quit", "-delete", "-d", "-true", "-a", "-and", "-o", "-or", "-not", "-maxdepth",
	"-mindepth", "-printf", "-nowarn", "-warn", "-ignore_readdir_race", "-daystart", "-regextype")

// find rates -delete and -exec: they act on everything found under the
// start directories, so the start directories decide.
func (a *assessor) find(rest []arg) {
	i := 0
	for i < len(rest) && (rest[i].text == "-H" || rest[i].text == "-L" || rest[i].text == "-P" ||
		strings.HasPrefix(rest[i].text, "-O") || rest[i].text == "-D") {
		if rest[i].text == "-D" {
			i++
		}
		i++
	}
	var starts []arg
	for ; i < len(rest); i++ {
		t := rest[i].text
		if rest[i].known && (strings.HasPrefix(t, "-") || t == "(" || t == "!" || t == ",") {
			break
		}
		starts = append(starts, rest[i])
	}
	if len(starts) == 0 {
		starts = []arg{literalArg(".")}
	}
	expr := rest[i:]
	filtered, del := false, false
	var execs [][]arg
	for j := 0; j < len(expr); j++ {
		t := expr[j].text
		switch t {
		case "-delete":
			del = true
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(expr) && expr[k].text != ";" && expr[k].text != "+" {
				k++
			}
			execs = append(execs, expr[j+1:k])
			j = k
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if j+1 < len(expr) {
				a.writeTarget(a.resolve(expr[j+1]), "find "+t+" writes")
			}
		case "-maxdepth", "-mindepth", "-printf", "-regextype":
			j++
		default:
			if strings.HasPrefix(t, "-") && !findNonFilters[t] {
				filtered = true
			}
		}
	}
	for _, s := range starts {
		under := a.resolve(s)
		if under.known {
			under.children, under.all = true, !filtered
			under.shown = a.describe(under)
		}
		if del {
			a.deleteTarget(under, true, "delete")
		}
		if len(execs) > 0 && under.known && a.home != "" && under.path != "" && within(a.home, under.path) {
			a.flag(High, "find runs a command on files all over "+a.describe(target{path: under.path, known: true})+", credential stores included")
		}
		for _, cmd := range execs {
			words := make([]arg, len(cmd))
			for k, x := range cmd {
				if strings.Contains(x.text, "{}") && x.text != "{}" && under.known {
					// sh -c 'rm -rf {}': put a found path into the text.
					x.text = strings.ReplaceAll(x.text, "{}", a.foundPath(s, under))
				} else if strings.Contains(x.text, "{}") {
					u := under
					x = arg{text: "{}", known: under.known, dynamic: under.dynamic, globAt: -1, under: &u, src: under.shown}
				}
				words[k] = x
			}
			a.command(words, nil)
		}
	}
}

// foundPath is a stand-in for a path find reports under start: start
// itself when nothing narrows the search (every entry is hit), else a
// path below it.
func (a *assessor) foundPath(start arg, under target) string {
	p := start.text
	if !under.all {
		p = strings.TrimSuffix(p, "/") + "/found-entry"
	}
	if q, err := syntax.Quote(p, syntax.LangBash); err == nil {
		return q
	}
	return p
}
