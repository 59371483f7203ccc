package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unwrapped is what a wrapper command (sudo, env, xargs, timeout, ...)
// runs.
type unwrapped struct {
	inner     []arg // the wrapped command, empty when there is none
	asRoot    bool  // sudo, doas, su: the inner command runs as root
	fromStdin bool  // xargs: more arguments come from stdin
	replace   string
	script    *arg  // a shell string the wrapper runs: su -c, env -S, watch, flock -c, trap
	split     bool  // env -S: script holds the leading words of the inner command
	chdir     *arg  // env -C: the inner command runs elsewhere
	assigns   []arg // env NAME=value: variables the inner command gets
	attaches  bool  // strace -p: attaches to a running process
}

// optionsWithValue lists, per wrapper, the options that take the next word.
var optionsWithValue = map[string]map[string]bool{
	"sudo": set("-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group",
		"--host", "--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--command-timeout"),
	"doas":    set("-u", "-C"),
	"pkexec":  set("--user"),
	"run0":    set("-u", "--user", "-D", "--chdir"),
	"env":     set("-u", "--unset", "-C", "--chdir", "-S", "--split-string"),
	"nice":    set("-n", "--adjustment"),
	"ionice":  set("-c", "-n", "--class", "--classdata"),
	"timeout": set("-s", "--signal", "-k", "--kill-after"),
	"stdbuf":  set("-i", "-o", "-e", "--input", "--output", "--error"),
	"xargs": set("-n", "-L", "-P", "-s", "-d", "-E", "-I", "-a", "--max-args", "--max-lines",
		"--max-procs", "--delimiter", "--eof", "--replace", "--arg-file", "--process-slot-var"),
	"flock":      set("-w", "-E", "--timeout", "--conflict-exit-code"),
	"exec":       set("-a"),
	"time":       set("-o", "-f", "--output", "--format"),
	"setsid":     set(),
	"nohup":      set(),
	"command":    set(),
	"builtin":    set(),
	"chrt":       set(),
	"taskset":    set(),
	"watch":      set("-n", "--interval", "-d", "--differences", "-q", "--equexit"),
	"busybox":    set(),
	"unbuffer":   set(),
	"caffeinate": set("-t", "-w"),
	"chroot":     set("--userspec", "--groups"),
	"strace":     set("-o", "-e", "-p", "-s", "-u"),
}

func set(items ...string) map[string]bool {
	m := make(map[string]bool, len(items))
	for _, s := range items {
		m[s] = true
	}
	return m
}

// unwrap recognises a wrapper and returns what it runs. ok is false for
// programs that are not wrappers.
func unwrap(prog string, rest []arg) (u unwrapped, ok bool) {
	withValue, isWrapper := optionsWithValue[prog]
	if !isWrapper && prog != "su" && prog != "eval" && prog != "trap" {
		return u, false
	}
	switch prog {
	case "su":
		u.asRoot = true
		for i := 0; i < len(rest); i++ {
			if rest[i].text == "-c" || rest[i].text == "--command" {
				if i+1 < len(rest) {
					s := rest[i+1]
					u.script = &s
				}
				break
			}
			if s, found := strings.CutPrefix(rest[i].text, "--command="); found {
				x := rest[i]
				x.text = s
				u.script = &x
			}
		}
		return u, true
	case "eval":
		s := joinArgs(rest)
		u.script = &s
		return u, true
	case "trap":
		if len(rest) >= 2 && rest[0].text != "-" {
			s := rest[0]
			u.script = &s
		}
		return u, true
	}
	i := 0
	for ; i < len(rest); i++ {
		x := rest[i]
		if !x.isOption() {
			break
		}
		if x.text == "--" {
			i++
			break
		}
		opt, value, hasValue := strings.Cut(x.text, "=")
		takesNext := withValue[opt] && !hasValue
		if takesNext && i+1 < len(rest) {
			value, hasValue = rest[i+1].text, true
		}
		switch {
		case prog == "env" && (opt == "-S" || opt == "--split-string") && hasValue:
			s := rest[i]
			if takesNext {
				s = rest[i+1]
			} else {
				s.text = value
			}
			u.script, u.split = &s, true
		case prog == "env" && (opt == "-C" || opt == "--chdir") && hasValue:
			d := rest[i]
			if takesNext {
				d = rest[i+1]
			} else {
				d.text = value
			}
			u.chdir = &d
		case prog == "xargs" && (opt == "-I" || opt == "--replace"):
			u.replace = value
		case prog == "xargs" && strings.HasPrefix(opt, "-I") && len(opt) > 2: // -I{} attached
			u.replace = opt[2:]
		case prog == "xargs" && (opt == "-i" || strings.HasPrefix(opt, "-i")):
			u.replace = strings.TrimPrefix(opt, "-i")
			if u.replace == "" {
				u.replace = "{}"
			}
		case (prog == "command" && (opt == "-v" || opt == "-V")) || (prog == "ionice" && opt == "-p"):
			return u, true // a lookup or a query, nothing runs
		case prog == "strace" && opt == "-p":
			u.attaches = true
		case prog == "sudo" && (opt == "-l" || opt == "-v" || opt == "-k" || opt == "-K" || opt == "-e"):
			u.asRoot = true
			return u, true
		}
		if takesNext {
			i++
		}
	}
	rest = rest[min(i, len(rest)):]
	switch prog {
	case "sudo", "doas", "pkexec", "run0":
		u.asRoot = true
	case "chroot":
		u.asRoot = true
		if len(rest) > 0 {
			rest = rest[1:] // the new root
		}
	case "env":
		for len(rest) > 0 && isAssignment(rest[0].text) {
			u.assigns = append(u.assigns, rest[0])
			rest = rest[1:]
		}
	case "timeout", "chrt", "taskset", "flock":
		if len(rest) > 0 {
			rest = rest[1:] // duration, priority, mask or lock file
		}
		if prog == "flock" && len(rest) > 1 && (rest[0].text == "-c" || rest[0].text == "--command") {
			s := rest[1]
			u.script = &s
			return u, true
		}
	case "xargs":
		u.fromStdin = true
	case "watch":
		if len(rest) > 0 {
			s := joinArgs(rest)
			u.script = &s
		}
		return u, true
	}
	u.inner = rest
	return u, true
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// joinArgs joins words the way eval and watch do: with spaces, re-parsed.
func joinArgs(args []arg) arg {
	out := arg{known: true, globAt: -1}
	var texts []string
	for _, x := range args {
		texts = append(texts, x.text)
		if !x.known {
			out.known = false
			out.word = x.word
		}
	}
	out.text = strings.Join(texts, " ")
	if out.word == nil && len(args) > 0 {
		out.word = args[0].word
	}
	return out
}

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

// shellString rates a string a wrapper or shell runs as code.
func (a *assessor) shellString(s arg, via string) {
	if s.known {
		a.script(s.text)
		return
	}
	switch a.feeds(s.word) {
	case feedDownload:
		a.flag(Critical, via+" runs a downloaded script")
	case feedDecode:
		a.flag(High, via+" runs decoded text as code")
	default:
		a.flag(High, via+" runs shell code only known at run time: "+s.raw())
	}
}

// feed is what a substitution or a pipe delivers.
type feed int

const (
	feedOther feed = iota
	feedDownload
	feedDecode
)

var downloaders = set("curl", "wget", "fetch", "aria2c", "http", "https", "xh", "lwp-request",
	"lwp-download", "nc", "ncat", "netcat", "socat", "telnet")

var interpreters = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh",
	"python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "node", "nodejs", "php", "lua",
	"Rscript", "pwsh", "powershell", "osascript", "tclsh", "bun", "deno", "source", ".")

var shells = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh")

func isInterpreter(prog string) bool {
	return interpreters[prog] || strings.HasPrefix(prog, "python3.") || strings.HasPrefix(prog, "python2.")
}

// feeds reports the worst thing substitutions in a word deliver: a
// download ($(curl …)), decoded data ($(base64 -d …)) or other output.
func (a *assessor) feeds(w *syntax.Word) feed {
	if w == nil {
		return feedOther
	}
	worst := feedOther
	syntax.Walk(w, func(n syntax.Node) bool {
		var stmts []*syntax.Stmt
		switch n := n.(type) {
		case *syntax.CmdSubst:
			stmts = n.Stmts
		case *syntax.ProcSubst:
			stmts = n.Stmts
		default:
			return true
		}
		for _, s := range stmts {
			if f := a.stmtFeed(s); f > worst && (worst != feedDownload) {
				worst = f
			}
		}
		return false
	})
	return worst
}

// stmtFeed classifies what a statement writes to its stdout.
func (a *assessor) stmtFeed(s *syntax.Stmt) feed {
	worst := feedOther
	syntax.Walk(s, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		prog, args := a.effective(a.exp.expandAll(c.Args))
		switch {
		case downloaders[prog]:
			worst = feedDownload
		case isDecoder(prog, args) && worst == feedOther:
			worst = feedDecode
		}
		return true
	})
	return worst
}

// effective strips wrappers and returns the program that really runs.
func (a *assessor) effective(args []arg) (string, []arg) {
	for range 16 {
		if len(args) == 0 || !args[0].known {
			return "", nil
		}
		prog := path.Base(args[0].text)
		u, ok := unwrap(prog, args[1:])
		if !ok {
			return prog, args[1:]
		}
		if len(u.inner) == 0 && u.script != nil && u.script.known {
			return "sh", []arg{literalArg("-c"), *u.script}
		}
		args = u.inner
	}
	return "", nil
}

func isDecoder(prog string, args []arg) bool {
	has := func(opts ...string) bool {
		for _, x := range args {
			for _, o := range opts {
				if x.text == o {
					return true
				}
			}
		}
		return false
	}
	switch prog {
	case "base64", "base32", "basenc":
		return has("-d", "--decode", "-D")
	case "xxd":
		return has("-r", "-revert")
	case "openssl":
		return has("-d", "-base64", "base64")
	case "uudecode", "gunzip", "zcat", "bzcat", "xzcat", "zstdcat", "rev":
		return true
	case "gzip", "bzip2", "xz", "zstd":
		return has("-d", "--decompress")
	}
	return false
}
