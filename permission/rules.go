package permission

import "strings"

// remove rates rm, unlink, rmdir. GNU rm takes options after operands too,
// so every option word counts, wherever it is.
func (a *assessor) remove(prog string, rest []arg) {
	recursive := false
	var targets []arg
	opts := true
	for _, x := range rest {
		if opts && x.known && x.text == "--" {
			opts = false
			continue
		}
		if opts && x.isOption() && prog != "unlink" {
			if shortFlag(x, 'r', "--recursive") || shortFlag(x, 'R', "") {
				recursive = true
			}
			if x.text == "--no-preserve-root" {
				a.flag(High, "rm --no-preserve-root disables the protection of /")
			}
			continue
		}
		targets = append(targets, x)
	}
	if prog == "rmdir" {
		recursive = false
	}
	for _, x := range targets {
		a.deleteTarget(a.resolve(x), recursive, "delete")
	}
}

func (a *assessor) cd(rest []arg) {
	ops := operands(rest, nil)
	switch {
	case len(ops) == 0:
		if a.home != "" {
			a.cwd, a.cwdMode = a.home, cwdKnown
		} else {
			a.cwdMode = cwdAnywhere
		}
	case ops[0].known && ops[0].text == "-":
		a.cwdMode = cwdAnywhere
	default:
		a.changeDir(ops[0])
	}
}

// changeDir follows cd: later relative paths resolve against the new
// directory, or against an unknown one.
func (a *assessor) changeDir(dir arg) {
	t := a.resolve(dir)
	switch {
	case t.path != "" && !t.children:
		a.cwd, a.cwdMode = t.path, cwdKnown
	case t.known && !t.children && a.cwdMode == cwdWorkspace && t.rel != ".." && !strings.HasPrefix(t.rel, "../"):
		// still somewhere inside the unnamed workspace
	default:
		a.cwdMode = cwdAnywhere
	}
}

func (a *assessor) dd(rest []arg) {
	for _, x := range rest {
		if v, ok := strings.CutPrefix(x.text, "of="); ok {
			y := x
			y.text = v
			if y.globAt >= 0 {
				y.globAt -= len("of=")
			}
			a.writeTarget(a.resolve(y), "dd writes")
		}
	}
}

func (a *assessor) shred(prog string, rest []arg) {
	for _, x := range operands(rest, set("-n", "-s", "--iterations", "--size", "--random-source")) {
		t := a.resolve(x)
		if t.path != "" && isDiskDevice(t.path) {
			a.flag(Critical, prog+" destroys disk device "+t.path)
			continue
		}
		a.flag(High, prog+" destroys "+t.shown+" beyond recovery")
	}
}

// chmod rates chmod/chown/chgrp: recursive changes of / are CRITICAL, of
// system paths, home or anything outside the workspace HIGH.
func (a *assessor) chmod(prog string, rest []arg) {
	recursive := false
	for _, x := range rest {
		if x.known && (x.text == "-R" || x.text == "--recursive" || (len(x.text) > 2 && x.text[0] == '-' &&
			x.text[1] != '-' && strings.Trim(x.text[1:], "Rcfvh") == "" && strings.Contains(x.text, "R"))) {
			recursive = true
		}
	}
	var ops []arg
	for _, x := range rest {
		if x.isOption() && (prog != "chmod" || strings.Trim(x.text[1:], "rwxXstugoa+-=,01234567") != "" || strings.HasPrefix(x.text, "--")) {
			continue // an option, not a mode like -x
		}
		ops = append(ops, x)
	}
	if !hasPrefixOption(rest, "--reference") && len(ops) > 0 {
		ops = ops[1:] // the mode or owner
	}
	for _, x := range ops {
		t := a.resolve(x)
		what := prog + " of " + t.shown
		if recursive {
			what = prog + " -R of " + t.shown
		}
		if !t.known {
			if recursive || t.dynamic {
				a.flag(High, what+" (a path only known at run time)")
			}
			continue
		}
		switch a.placeOf(t) {
		case placeCritical:
			if recursive && t.path == "/" && (!t.children || t.all) {
				a.flag(Critical, what)
			} else {
				a.flag(High, what+" (system path or home)")
			}
		case placeSensitive:
			a.flag(High, what+" (system path, startup file or credentials)")
		case placeOutside:
			a.flag(High, what+" (outside the workspace)")
		}
	}
}

func hasPrefixOption(args []arg, prefix string) bool {
	for _, x := range args {
		if strings.HasPrefix(x.text, prefix) {
			return true
		}
	}
	return false
}

func (a *assessor) kill(prog string, rest []arg) {
	if prog == "killall5" {
		a.flag(Critical, "killall5 kills every process")
		return
	}
	if prog != "kill" {
		if hasOption(rest, "-u", "-U", "--uid", "--euid", "--user") || hasPrefixOption(rest, "--user=") {
			a.flag(High, prog+" -u kills every process of a user")
		}
		for _, x := range operands(rest, set("-s", "--signal", "-u", "-U", "-g", "-G", "-P", "-t", "--uid", "--euid", "--user")) {
			if !x.known || x.text == "." || x.text == ".*" || x.text == "" {
				a.flag(High, prog+" "+x.raw()+" matches every process")
			}
		}
		return
	}
	sig := false
	var pids []arg
	for i := 0; i < len(rest); i++ {
		x := rest[i]
		switch {
		case x.text == "--":
			pids = append(pids, rest[i+1:]...)
			i = len(rest)
		case x.text == "-s" || x.text == "-n":
			sig = true
			i++
		case x.text == "-l" || x.text == "-L":
			return
		case !sig && x.isOption():
			sig = true
		default:
			pids = append(pids, x)
		}
	}
	for _, p := range pids {
		switch {
		case p.text == "-1":
			a.flag(Critical, "kill -1 signals every process")
		case p.text == "1":
			a.flag(High, "kill 1 signals init")
		}
	}
}
