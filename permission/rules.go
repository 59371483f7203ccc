package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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

// git rates a git invocation by subcommand: history rewrites on the remote
// and discarding uncommitted work are HIGH.
func (a *assessor) git(rest []arg) {
	i := 0
	for i < len(rest) && rest[i].isOption() {
		a.gitGlobalOption(rest, i)
		if gitValueOptions[rest[i].text] {
			i++
		}
		i++
	}
	if i >= len(rest) {
		return
	}
	if !rest[i].known {
		a.raise(Medium)
		return
	}
	sub, args := rest[i].text, rest[i+1:]
	a.gitSubcommandCode(sub, args)
	if sub == "config" {
		a.gitConfigCommand(args)
	}
	if lowSubcommands["git"][sub] {
		return
	}
	ops := operands(args, nil)
	if a.gitListing(sub, args, ops) {
		return
	}
	switch sub {
	case "push":
		for _, x := range args {
			switch {
			case shortFlag(x, 'f', "--force"), strings.HasPrefix(x.text, "--force-with-lease"),
				x.text == "--force-if-includes", x.text == "--mirror":
				a.flag(High, "git push --force rewrites the remote's history")
			case shortFlag(x, 'd', "--delete"), x.text == "--prune":
				a.flag(High, "git push --delete removes remote branches")
			}
		}
		if len(ops) > 0 && (strings.Contains(ops[0].text, "://") || remoteOperand(ops[0]) && strings.Contains(ops[0].text, "@")) {
			a.send("git push sends the repository to a URL, not a configured remote: "+ops[0].raw(), false)
		}
		for _, x := range ops {
			switch {
			case strings.HasPrefix(x.text, "+"):
				a.flag(High, "git push "+x.text+" force-pushes")
			case strings.HasPrefix(x.text, ":"):
				a.flag(High, "git push "+x.text+" deletes a remote branch")
			}
		}
	case "reset":
		if hasOption(args, "--hard") {
			a.flag(High, "git reset --hard discards uncommitted changes")
		}
	case "clean":
		dry, force := false, false
		for _, x := range args {
			dry = dry || shortFlag(x, 'n', "--dry-run")
			force = force || shortFlag(x, 'f', "--force") || shortFlag(x, 'i', "--interactive")
		}
		if force && !dry {
			a.flag(High, "git clean -f deletes untracked files")
		}
	case "checkout", "restore", "switch":
		if hasOption(args, "-f", "--force", "--discard-changes") {
			a.flag(High, "git "+sub+" --force discards uncommitted changes")
		}
		staged := hasOption(args, "--staged", "-S") && !hasOption(args, "--worktree", "-W")
		for _, x := range ops {
			if (x.text == "." || x.text == ":/" || x.text == "*") && sub != "switch" && !staged {
				a.flag(High, "git "+sub+" "+x.text+" discards all uncommitted changes")
			}
		}
	case "stash":
		if len(ops) > 0 && ops[0].text == "clear" {
			a.flag(High, "git stash clear deletes every stash")
		}
	case "filter-branch", "filter-repo":
		a.flag(High, "git "+sub+" rewrites history")
	case "reflog":
		if len(ops) > 0 && (ops[0].text == "expire" || ops[0].text == "delete") {
			a.flag(High, "git reflog "+ops[0].text+" drops recovery points")
		}
	case "gc", "prune":
		for _, x := range args {
			if strings.HasPrefix(x.text, "--prune=now") || x.text == "--prune=all" || sub == "prune" {
				a.flag(High, "git "+sub+" deletes unreachable commits now")
				break
			}
		}
	case "update-ref":
		if hasOption(args, "-d") {
			a.flag(High, "git update-ref -d deletes a ref")
		}
	}
	a.raise(Medium)
}

// gitListing reports whether a git subcommand only lists (git branch,
// git tag -l, git remote -v, git config --get, git stash list).
func (a *assessor) gitListing(sub string, args, ops []arg) bool {
	switch sub {
	case "branch", "tag":
		for _, x := range args {
			switch x.text {
			case "-a", "-r", "-v", "-vv", "--list", "-l", "--show-current", "--all", "--remotes",
				"--merged", "--no-merged", "--contains", "-n":
			default:
				return false
			}
		}
		return true
	case "remote":
		return len(ops) == 0 || ops[0].text == "show" || ops[0].text == "get-url"
	case "stash", "worktree", "notes":
		return len(ops) > 0 && (ops[0].text == "list" || ops[0].text == "show")
	case "config":
		return hasOption(args, "--get", "--get-all", "--list", "-l", "--get-regexp") ||
			(len(ops) > 0 && (ops[0].text == "get" || ops[0].text == "list"))
	case "reflog":
		return len(ops) == 0 || ops[0].text == "show"
	}
	return false
}

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
