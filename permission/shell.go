package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// ShellAssessment is the danger detector's verdict on a shell command.
type ShellAssessment struct {
	Risk Risk
	// Reasons explain a HIGH or CRITICAL rating in plain words, e.g.
	// "recursive delete of /". Empty below HIGH.
	Reasons []string
	// Scope names what runs, for "allow for this session": program and
	// subcommand of each command ("git status", "go test", "ls"), deduped,
	// in order, joined by " && ".
	Scope string
}

// maxNesting bounds re-parsing of scripts inside scripts (bash -c 'eval
// "sh -c …"'); deeper nesting is itself suspicious and rated HIGH.
const maxNesting = 8

// maxScripts bounds how many scripts one command may make the detector
// parse (x='eval $x; eval $x'; eval $x would otherwise grow exponentially).
const maxScripts = 64

// AssessShell rates a shell command before it runs. workspaceRoots are
// absolute directories the agent works in; the first is the working
// directory. home is the user's home directory ("" if unknown, then ~ and
// $HOME are unresolved and deletes of them are only HIGH).
//
// The command is parsed as bash, never run. Every command is visited: in
// lists, pipelines, subshells, blocks, loops, functions, command and
// process substitutions, and inside the script arguments of bash -c, sh -c,
// eval, trap, su -c and wrappers (sudo, env, xargs, nohup, timeout, nice,
// command, exec, ...). See danger.go for the rating table.
func AssessShell(command string, workspaceRoots []string, home string) ShellAssessment {
	return AssessShellIn(command, ShellContext{Roots: workspaceRoots, Home: home})
}

// ShellContext is where a command would run: the workspace, the user's
// home, and what the OS sandbox (when there is one) contains.
type ShellContext struct {
	Roots []string // absolute workspace roots; the first is the working directory
	Home  string   // the user's home directory, "" if unknown
	// SandboxFS: the command runs under an OS sandbox that confines its
	// writes to the workspace and a private temp dir and hides the secret
	// stores (~/.ssh, ~/.aws, ...).
	SandboxFS bool
	// SandboxNet: the same sandbox keeps its network on loopback (nothing
	// leaves the machine).
	SandboxNet bool
}

// AssessShellIn is AssessShell with the full context: what the sandbox
// contains lowers the risk of what it can contain (inline interpreter
// code whose effects stay in the workspace), never of what it cannot.
func AssessShellIn(command string, c ShellContext) ShellAssessment {
	a := newAssessor(c.Roots, c.Home)
	a.sandboxFS, a.sandboxNet = c.SandboxFS, c.SandboxNet
	a.script(command)
	return a.result()
}

// assessor accumulates findings while walking one command line.
type assessor struct {
	roots   []string
	home    string
	cwd     string
	cwdMode cwdMode
	exp     *expander
	depth   int
	parsed  int // scripts parsed so far, against maxScripts

	risk       Risk
	reasons    []string
	seenReason map[string]bool
	scopes     []string
	seenScope  map[string]bool
	downloaded map[string]bool // files written by curl -o / wget -O earlier in the command

	sandboxFS, sandboxNet bool // see ShellContext
}

func newAssessor(roots []string, home string) *assessor {
	a := &assessor{
		seenReason: map[string]bool{},
		seenScope:  map[string]bool{},
		downloaded: map[string]bool{},
		cwdMode:    cwdWorkspace,
	}
	for _, r := range roots {
		if strings.HasPrefix(r, "/") {
			a.roots = append(a.roots, path.Clean(r))
		}
	}
	if home != "" && strings.HasPrefix(home, "/") {
		a.home = path.Clean(home)
	}
	vars := map[string]string{"IFS": " \t\n"}
	if a.home != "" {
		vars["HOME"] = a.home
	}
	if len(a.roots) > 0 {
		a.cwd, a.cwdMode = a.roots[0], cwdKnown
		vars["PWD"] = a.cwd
	}
	a.exp = &expander{vars: vars}
	return a
}

func (a *assessor) result() ShellAssessment {
	s := ShellAssessment{Risk: a.risk, Scope: strings.Join(a.scopes, " && ")}
	if a.risk >= High {
		s.Reasons = a.reasons
	}
	return s
}

// raise lifts the risk without a reason (the everyday levels).
func (a *assessor) raise(r Risk) {
	if r > a.risk {
		a.risk = r
	}
}

// flag records a finding; reasons are kept for HIGH and above.
func (a *assessor) flag(r Risk, reason string) {
	a.raise(r)
	if r >= High && !a.seenReason[reason] {
		a.seenReason[reason] = true
		a.reasons = append(a.reasons, reason)
	}
}

func (a *assessor) addScope(s string) {
	if s == "" || a.seenScope[s] {
		return
	}
	a.seenScope[s] = true
	a.scopes = append(a.scopes, s)
}

// script parses and walks shell source: the command itself, or a script
// found inside it (bash -c '…'). Nested scripts see the variables known so
// far and cannot change the outer working directory.
func (a *assessor) script(src string) {
	if a.depth > maxNesting || a.parsed >= maxScripts {
		a.flag(High, "shell code nested too deeply to inspect")
		return
	}
	a.parsed++
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		a.flag(High, "command does not parse: "+firstLine(err.Error()))
		return
	}
	savedExp, savedCwd, savedMode := a.exp, a.cwd, a.cwdMode
	a.depth++
	a.exp = &expander{vars: collectVars(f, savedExp.vars)}
	a.stmts(f.Stmts)
	a.exp, a.cwd, a.cwdMode = savedExp, savedCwd, savedMode
	a.depth--
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func (a *assessor) stmts(list []*syntax.Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

// subshell walks statements whose cd does not leak out.
func (a *assessor) subshell(list []*syntax.Stmt) {
	cwd, mode := a.cwd, a.cwdMode
	a.stmts(list)
	a.cwd, a.cwdMode = cwd, mode
}

func (a *assessor) stmt(s *syntax.Stmt) {
	switch c := s.Cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		a.callExpr(c, s.Redirs)
		a.redirectedDownload(c, s.Redirs)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			a.pipeline(c)
		} else {
			a.stmt(c.X)
			a.stmt(c.Y)
		}
	case *syntax.FuncDecl:
		a.funcDecl(c)
	case *syntax.Subshell:
		a.subshell(c.Stmts)
	case *syntax.DeclClause:
		a.declClause(c)
	default: // blocks, if, loops, case, [[ ]], (( )), declare, time, coproc
		a.nested(c)
	}
	a.redirects(s.Redirs)
}

// nested walks any node for the statements and substitutions inside it.
func (a *assessor) nested(n syntax.Node) {
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			a.stmt(n)
			return false
		case *syntax.CmdSubst:
			a.subshell(n.Stmts)
			return false
		case *syntax.ProcSubst:
			a.subshell(n.Stmts)
			return false
		}
		return true
	})
}

func (a *assessor) callExpr(c *syntax.CallExpr, redirs []*syntax.Redirect) {
	a.assigns(c.Assigns)
	for _, as := range c.Assigns {
		a.nested(as)
	}
	for _, w := range c.Args {
		a.nested(w)
	}
	a.command(a.exp.expandAll(c.Args), redirs)
}

// redirects rates output redirections and walks substitutions in them.
func (a *assessor) redirects(rs []*syntax.Redirect) {
	for _, r := range rs {
		a.nested(r.Word)
		if r.Hdoc != nil {
			a.nested(r.Hdoc)
		}
		if r.Word != nil && r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			w := a.exp.single(r.Word)
			if a.devNet(w.text) {
				continue
			}
			if r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut || r.Op == syntax.DplIn {
				a.secretReads("a redirection", []arg{w})
			}
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrInOut,
			syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		case syntax.DplOut:
			if l := r.Word.Lit(); l == "-" || strings.Trim(l, "0123456789") == "" {
				continue // >&2 duplicates a descriptor
			}
		default:
			continue
		}
		t := a.resolve(a.exp.single(r.Word))
		a.writeTarget(t, "redirects output")
	}
}

// funcDecl spots fork bombs: a function that runs itself twice at once,
// through a pipe or in the background (:(){ :|:& };:).
func (a *assessor) funcDecl(f *syntax.FuncDecl) {
	if f.Name != nil {
		name := f.Name.Value
		calls, forked := 0, false
		syntax.Walk(f.Body, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				if n.Background && callsFunc(n, name) {
					forked = true
				}
			case *syntax.BinaryCmd:
				if (n.Op == syntax.Pipe || n.Op == syntax.PipeAll) && (callsFunc(n.X, name) || callsFunc(n.Y, name)) {
					forked = true
				}
			case *syntax.CallExpr:
				if len(n.Args) > 0 && n.Args[0].Lit() == name {
					calls++
				}
			}
			return true
		})
		if forked && calls > 0 {
			a.flag(Critical, "fork bomb: function "+name+" spawns copies of itself")
		}
		if shadowable(name) {
			a.flag(High, "function "+name+" shadows the command of that name")
		}
	}
	a.nested(f.Body)
}

func callsFunc(s *syntax.Stmt, name string) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}

// command rates one simple command given its expanded words.
func (a *assessor) command(args []arg, redirs []*syntax.Redirect) {
	if len(args) == 0 {
		return
	}
	name := args[0]
	if !name.known {
		a.flag(High, "command name is only known at run time: "+name.raw())
		a.addScope(name.raw())
		return
	}
	prog := path.Base(name.text)
	if a.wrapper(prog, args[1:], redirs) {
		return
	}
	a.addScope(scopeOf(name.text, prog, args[1:]))
	if a.downloaded[a.resolve(name).path] {
		a.flag(Critical, "runs a file downloaded by this command: "+name.text)
	}
	a.rate(prog, args[1:], redirs)
}

// subcommandTools are programs whose first operand picks what they do; the
// session scope of those is "program subcommand".
var subcommandTools = map[string]bool{
	"git": true, "go": true, "npm": true, "npx": true, "yarn": true, "pnpm": true, "bun": true,
	"deno": true, "cargo": true, "rustup": true, "docker": true, "podman": true, "kubectl": true,
	"helm": true, "pip": true, "pip3": true, "uv": true, "poetry": true, "gh": true, "brew": true,
	"apt": true, "apt-get": true, "dnf": true, "yum": true, "pacman": true, "systemctl": true,
	"terraform": true, "dotnet": true, "make": true, "just": true, "gradle": true, "gradlew": true,
	"mvn": true, "bazel": true, "conda": true, "composer": true, "bundle": true, "mix": true,
	"swift": true, "flutter": true, "dart": true, "gcloud": true, "aws": true, "az": true,
}

// gitValueOptions are git's global options that take the next word.
var gitValueOptions = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true,
	"--namespace": true, "--exec-path": true, "--config-env": true}

func scopeOf(name, prog string, rest []arg) string {
	shown := prog
	if strings.Contains(name, "/") {
		shown = name
	}
	if !subcommandTools[prog] {
		return shown
	}
	if sub := subcommand(prog, rest); sub != "" {
		return shown + " " + sub
	}
	return shown
}

// subcommand is the first operand, after global options.
func subcommand(prog string, rest []arg) string {
	for i := 0; i < len(rest); i++ {
		x := rest[i]
		if !x.known {
			return "…"
		}
		if strings.HasPrefix(x.text, "-") {
			if prog == "git" && gitValueOptions[x.text] {
				i++
			}
			continue
		}
		return x.text
	}
	return ""
}
