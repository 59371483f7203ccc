package permission

import (
	"path"
	"strings"
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
