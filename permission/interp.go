package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inlineCodeFlags are the options after which an interpreter takes its
// program text as the next word instead of a file or stdin.
var inlineCodeFlags = map[string]map[string]bool{
	"python":     set("-c"),
	"perl":       set("-e", "-E"),
	"ruby":       set("-e"),
	"node":       set("-e", "--eval", "-p", "--print"),
	"php":        set("-r"),
	"lua":        set("-e"),
	"Rscript":    set("-e"),
	"pwsh":       set("-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"),
	"osascript":  set("-e"),
	"deno":       set("eval"),
	"bun":        set("-e", "--eval"),
	"tclsh":      set(),
	"powershell": set("-c", "-Command", "-command", "-EncodedCommand", "-e", "-ec"),
}

func langOf(prog string) string {
	switch {
	case strings.HasPrefix(prog, "python"), strings.HasPrefix(prog, "pypy"):
		return "python"
	case prog == "nodejs":
		return "node"
	}
	return prog
}

// shellInvocation splits a shell's arguments: whether -c was given, the
// first operand (the -c script or a script file), and -s (script on stdin).
func shellInvocation(rest []arg) (hasC, hasS bool, operand *arg) {
	for i := 0; i < len(rest); i++ {
		x := rest[i]
		if x.known && x.text == "--" {
			if i+1 < len(rest) {
				operand = &rest[i+1]
			}
			return
		}
		if x.known && len(x.text) > 1 && (x.text[0] == '-' || x.text[0] == '+') {
			switch x.text {
			case "-o", "+o", "-O", "+O", "--rcfile", "--init-file":
				i++
				continue
			}
			if !strings.HasPrefix(x.text, "--") {
				hasC = hasC || strings.Contains(x.text, "c")
				hasS = hasS || strings.Contains(x.text, "s")
			}
			continue
		}
		operand = &rest[i]
		return
	}
	return
}

// interpreterCall splits an interpreter's arguments: the inline code (-c,
// -e, ...) if any, else the script operand if any.
func interpreterCall(prog string, rest []arg) (code, script *arg) {
	lang := langOf(prog)
	flags := inlineCodeFlags[lang]
	for i := 0; i < len(rest); i++ {
		x := rest[i]
		if flags[x.text] {
			if i+1 < len(rest) {
				return &rest[i+1], nil
			}
			return nil, nil
		}
		if x.isOption() && !strings.HasPrefix(x.text, "--") && (lang == "perl" || lang == "ruby" || lang == "node" || lang == "bun") {
			attached, takesCode, takesValue := shortCluster(lang, x.text[1:])
			switch {
			case takesCode && attached != "":
				y := x
				y.text = attached
				return &y, nil
			case takesCode:
				if i+1 < len(rest) {
					return &rest[i+1], nil
				}
				return nil, nil
			case takesValue:
				i++
			}
			continue
		}
		if x.isOption() && (lang == "node" || lang == "bun") && nodeValueOptions[x.text] {
			i++
			continue
		}
		if x.isOption() {
			if langOf(prog) == "python" && (x.text == "-m" || x.text == "-W" || x.text == "-X") {
				if x.text == "-m" {
					return nil, &rest[min(i+1, len(rest)-1)]
				}
				i++
			}
			continue
		}
		if x.known && x.text == "-" {
			return nil, nil
		}
		return nil, &rest[i]
	}
	return nil, nil
}

// nodeValueOptions are node's long options that take the next word.
var nodeValueOptions = set("--require", "--import", "--loader", "--experimental-loader", "--conditions",
	"--env-file", "--input-type", "--title", "--inspect-port", "--stack-size", "--max-old-space-size")

// shortCluster reads a cluster of short options (perl -lne, ruby -pe,
// node -pe): whether one of them takes the program text (e), attached
// or as the next word, and whether the last one takes the next word as
// its value (ruby -r lib, node -r mod).
func shortCluster(lang, c string) (attached string, takesCode, takesValue bool) {
	for j := 0; j < len(c); j++ {
		switch ch := c[j]; {
		case ch == 'e' || ch == 'E' && lang == "perl" || ch == 'p' && (lang == "node" || lang == "bun"):
			if lang == "node" || lang == "bun" {
				return "", true, false
			}
			return c[j+1:], true, false
		case lang == "perl" && (ch == 'l' || ch == '0'):
			for j+1 < len(c) && c[j+1] >= '0' && c[j+1] <= '7' {
				j++
			}
		case lang == "perl" && strings.IndexByte("iIMmxdDFC", ch) >= 0:
			return "", false, false // the rest of the cluster is this option's value
		case lang == "ruby" && strings.IndexByte("rICEFTxKW", ch) >= 0:
			return "", false, j == len(c)-1 && strings.IndexByte("rICE", ch) >= 0
		case (lang == "node" || lang == "bun") && (ch == 'r' || ch == 'C'):
			return "", false, j == len(c)-1
		}
	}
	return "", false, false
}

// readsCodeFromStdin reports whether a program run with these arguments
// executes what arrives on stdin (sh, bash -s, python -, perl).
func readsCodeFromStdin(prog string, rest []arg) bool {
	if prog == "source" || prog == "." {
		return len(rest) > 0 && (rest[0].text == "/dev/stdin" || rest[0].text == "/dev/fd/0")
	}
	if shells[prog] {
		hasC, hasS, op := shellInvocation(rest)
		return !hasC && (hasS || op == nil || op.text == "-" || op.text == "/dev/stdin")
	}
	if !isInterpreter(prog) {
		return false
	}
	code, script := interpreterCall(prog, rest)
	return code == nil && (script == nil || script.text == "-" || script.text == "/dev/stdin")
}

// interpreter rates a shell or language interpreter: code from downloads,
// bash -c scripts (re-parsed), here-documents fed to a shell.
func (a *assessor) interpreter(prog string, rest []arg, redirs []*syntax.Redirect) {
	for _, x := range rest {
		a.feedRisk(a.feeds(x.word), prog)
	}
	for _, r := range redirs {
		if r.Op == syntax.RdrIn || r.Op == syntax.WordHdoc || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
			a.feedRisk(a.feeds(r.Word), prog)
		}
	}
	if prog == "source" || prog == "." {
		if len(rest) > 0 {
			a.scriptFile(rest[0], prog)
			if a.feeds(rest[0].word) == feedOther && !readsCodeFromStdin(prog, rest) {
				a.sourcedFile(rest[0])
			}
		}
		return
	}
	if shells[prog] {
		a.rcFile(rest)
		hasC, _, op := shellInvocation(rest)
		if hasC {
			if op != nil {
				a.shellString(*op, prog+" -c")
			}
			return
		}
		if op != nil && op.text != "-" {
			a.scriptFile(*op, prog)
			return
		}
	} else {
		if prog == "pwsh" || prog == "powershell" {
			for _, x := range rest {
				switch strings.ToLower(x.text) {
				case "-encodedcommand", "-enc", "-ec", "-e":
					a.flag(High, prog+" runs encoded code")
				}
			}
		}
		code, script := interpreterCall(prog, rest)
		if code != nil {
			if preloadsCode(langOf(prog), rest) {
				a.opaqueCode(prog + " loads modules named on its command line")
			}
			a.inlineCode(prog, *code)
			return
		}
		if script != nil && script.text != "-" {
			a.scriptFile(*script, prog)
			return
		}
	}
	if readsCodeFromStdin(prog, rest) {
		a.stdinCode(prog, redirs)
	}
}

func (a *assessor) feedRisk(f feed, prog string) {
	switch f {
	case feedDownload:
		a.flag(Critical, prog+" runs a downloaded script")
	case feedDecode:
		a.flag(High, prog+" runs decoded text as code")
	}
}

// scriptFile rates running a script file: one downloaded by this very
// command line is CRITICAL, like curl | sh.
func (a *assessor) scriptFile(file arg, prog string) {
	t := a.resolve(file)
	if t.path != "" && a.downloaded[t.path] {
		a.flag(Critical, prog+" runs a file downloaded by this command: "+file.text)
	}
	if !file.known && a.feeds(file.word) == feedOther {
		a.flag(High, prog+" runs a script only known at run time: "+file.raw())
	}
}

// stdinCode rates code a shell reads from a here-document or here-string.
func (a *assessor) stdinCode(prog string, redirs []*syntax.Redirect) {
	for _, r := range redirs {
		var body *syntax.Word
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			body = r.Hdoc
		case syntax.WordHdoc:
			body = r.Word
		default:
			continue
		}
		if body == nil {
			continue
		}
		text := a.exp.single(body)
		if !shells[prog] {
			a.inlineCode(prog, text) // python3 <<EOF: the same as python3 -c
			continue
		}
		if text.known {
			a.script(text.text)
		} else if a.feeds(body) == feedOther {
			a.flag(High, prog+" runs shell code only known at run time")
		}
	}
}

// pipeline checks what flows into interpreters (curl | sh), then rates
// every stage on its own.
func (a *assessor) pipeline(c *syntax.BinaryCmd) {
	stages := flattenPipe(c, nil)
	downloading := false
	for _, s := range stages {
		a.stmt(s)
		if call, ok := s.Cmd.(*syntax.CallExpr); ok {
			prog, rest := a.effective(a.exp.expandAll(call.Args))
			if downloading {
				a.markDownloads(s.Redirs)
				if prog == "tee" {
					for _, x := range operands(rest, nil) {
						if t := a.resolve(x); t.path != "" {
							a.downloaded[t.path] = true
						}
					}
				}
			}
			downloading = downloading || downloaders[prog]
		}
	}
	a.exfiltration(stages)
	for i := 1; i < len(stages); i++ {
		call, ok := stages[i].Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		prog, rest := a.effective(a.exp.expandAll(call.Args))
		if !readsCodeFromStdin(prog, rest) {
			continue
		}
		a.pipedCode(prog, stages[:i])
	}
}

func flattenPipe(c *syntax.BinaryCmd, out []*syntax.Stmt) []*syntax.Stmt {
	for _, s := range []*syntax.Stmt{c.X, c.Y} {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			out = flattenPipe(b, out)
		} else {
			out = append(out, s)
		}
	}
	return out
}

// pipedCode rates what producers pipe into an interpreter.
func (a *assessor) pipedCode(prog string, producers []*syntax.Stmt) {
	for _, p := range producers {
		if a.stmtFeed(p) == feedDownload {
			a.flag(Critical, "pipes a download into "+prog)
			return
		}
	}
	last := producers[len(producers)-1]
	if a.stmtFeed(last) == feedDecode {
		a.flag(High, "pipes decoded data into "+prog)
		return
	}
	call, ok := last.Cmd.(*syntax.CallExpr)
	if !ok {
		a.flag(High, "runs piped output as code ("+prog+")")
		return
	}
	src, args := a.effective(a.exp.expandAll(call.Args))
	switch src {
	case "echo", "printf":
		for len(args) > 0 && args[0].isOption() {
			args = args[1:]
		}
		text := joinArgs(args)
		if src == "echo" || len(args) == 1 {
			if shells[prog] && text.known && !strings.Contains(text.text, "\\") {
				a.script(text.text)
				return
			}
			if !shells[prog] && text.known {
				a.inlineCode(prog, text) // echo 'code' | python3: the same as python3 -c
				return
			}
		}
	case "cat":
		files := operands(args, nil)
		plain := len(files) > 0
		for _, f := range files {
			plain = plain && f.known && f.text != "-" && !strings.HasPrefix(f.text, "/dev/")
		}
		if plain {
			a.raise(Medium) // the same as running the files
			return
		}
	}
	a.flag(High, "runs piped output of "+orUnknown(src)+" as code ("+prog+")")
}

func orUnknown(s string) string {
	if s == "" {
		return "a command"
	}
	return s
}
