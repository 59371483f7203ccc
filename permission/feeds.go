package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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
