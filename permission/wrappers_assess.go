package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapper handles wrapper commands; it reports false for other programs.
func (a *assessor) wrapper(prog string, rest []arg, redirs []*syntax.Redirect) bool {
	u, ok := unwrap(prog, rest)
	if !ok {
		return false
	}
	if u.asRoot {
		a.flag(High, "runs as root ("+prog+")")
	}
	for _, x := range rest {
		if isProcEnviron(x) && !strings.ContainsAny(x.text, " \n") {
			a.flag(High, prog+" reads a process's environment (where the daemon's keys live): "+x.raw())
		}
	}
	if u.attaches {
		a.flag(High, prog+" -p attaches to a running process and can read its memory")
	}
	for _, as := range u.assigns {
		name, value, _ := strings.Cut(as.text, "=")
		v := as
		v.text = value
		a.assignment(name, v)
	}
	if u.split {
		if words, ok := a.splitWords(*u.script); ok {
			a.command(append(words, u.inner...), redirs)
			return true
		}
	}
	if u.script != nil {
		a.addScope(prog)
		a.shellString(*u.script, prog)
	}
	if len(u.inner) == 0 {
		if u.script == nil {
			a.addScope(prog)
		}
		return true
	}
	inner := u.inner
	if u.fromStdin {
		inner = make([]arg, 0, len(u.inner)+1)
		replaced := false
		for _, x := range u.inner {
			if u.replace != "" && strings.Contains(x.text, u.replace) {
				x = stdinArg()
				replaced = true
			}
			inner = append(inner, x)
		}
		if !replaced {
			inner = append(inner, stdinArg())
		}
	}
	if u.chdir != nil {
		cwd, mode := a.cwd, a.cwdMode
		a.changeDir(*u.chdir)
		a.command(inner, redirs)
		a.cwd, a.cwdMode = cwd, mode
		return true
	}
	a.command(inner, redirs)
	return true
}

// splitWords splits env -S's string into words the way a simple command
// would be; ok is false when it is more than one simple command.
func (a *assessor) splitWords(s arg) ([]arg, bool) {
	if !s.known {
		return nil, false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s.text), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		return nil, false
	}
	return a.exp.expandAll(call.Args), true
}
