package permission

import (
	"strings"
)

// awk and sed are everyday text filters with a way out: awk's system(),
// pipes to and from commands and output redirections, sed's e command, s///e
// and w file. Those are rated; the filtering is not.

var (
	awkRunsCommands = LazyRegexp(`\bsystem\s*\(|\|\s*(?:getline\b|"|&)|"\s*\|[^|]|\|&|@load|\bexec\s*\(`)
	awkWritesFile   = LazyRegexp(`>>?\s*"([^"]+)"`)
)

// awk rates an awk program given on the command line.
func (a *assessor) awk(prog string, rest []arg) {
	var program *arg
	for i := 0; i < len(rest); i++ {
		x := rest[i]
		switch {
		case x.text == "-f" || x.text == "--file" || x.text == "-E" || x.text == "--exec":
			return // a program file: like running a script
		case x.text == "-l" || x.text == "--load" || strings.HasPrefix(x.text, "-l") && len(x.text) > 2:
			a.flag(High, prog+" -l loads a shared-object extension")
			return
		case x.text == "-i" || x.text == "--include":
			if i+1 < len(rest) && rest[i+1].text == "inplace" {
				for _, f := range operands(rest[i+2:], set("-F", "-v")) {
					a.writeTarget(a.resolve(f), prog+" -i inplace edits")
				}
			}
			i++
		case x.text == "-e" || x.text == "--source":
			if i+1 < len(rest) {
				p := rest[i+1]
				program = &p
			}
			i++
		case x.text == "-F" || x.text == "-v" || x.text == "--assign" || x.text == "--field-separator":
			i++
		case x.isOption():
		case program == nil:
			program = &rest[i]
		}
	}
	if program == nil {
		return
	}
	a.awkProgram(prog, *program)
}

func (a *assessor) awkProgram(prog string, p arg) {
	if !p.known {
		if a.feeds(p.word) == feedOther {
			a.opaqueCode(prog + " program only known at run time")
		}
		return
	}
	for _, m := range awkWritesFile().FindAllStringSubmatch(p.text, maxInlineStrings) {
		a.writeTarget(a.resolve(literalArg(m[1])), prog+" writes")
	}
	if awkRunsCommands().MatchString(p.text) {
		a.inlineCode(prog, p) // string literals read as shell; the rest opaque unless sandboxed
	}
}

// sedScript rates sed's commands that run or write: e, s///e, w, s///w
// (GNU sed --sandbox refuses them itself).
func (a *assessor) sedScript(rest []arg) {
	if hasOption(rest, "--sandbox") {
		return
	}
	var scripts []arg
	given := false
	for i, x := range rest {
		switch {
		case x.text == "-e" || x.text == "--expression":
			given = true
			if i+1 < len(rest) {
				scripts = append(scripts, rest[i+1])
			}
		case strings.HasPrefix(x.text, "--expression="):
			given = true
			y := x
			y.text = strings.TrimPrefix(x.text, "--expression=")
			scripts = append(scripts, y)
		case x.text == "-f" || x.text == "--file" || strings.HasPrefix(x.text, "--file="):
			given = true
		}
	}
	if !given {
		if ops := operands(rest, set("-l", "--line-length")); len(ops) > 0 {
			scripts = append(scripts, ops[0])
		}
	}
	for _, s := range scripts {
		if !s.known {
			if a.feeds(s.word) == feedOther {
				a.flag(High, "sed script only known at run time: "+s.raw())
			}
			continue
		}
		a.sedCommands(s.text)
	}
}

// sedCommands scans a sed script command by command.
func (a *assessor) sedCommands(s string) {
	i := 0
	restOfLine := func() string {
		j := i
		for j < len(s) && s[j] != '\n' {
			j++
		}
		out := strings.TrimSpace(s[i:j])
		i = j
		return out
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' ||
			c == '$' || c >= '0' && c <= '9' || c == '~' || c == '+':
			i++
		case c == '/' || c == '\\': // an address /re/ or \cREc
			if c == '\\' {
				i++
			}
			if i >= len(s) {
				return
			}
			i = skipDelimited(s, i, 1)
			for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case c == 's' || c == 'y':
			i++
			if i >= len(s) {
				return
			}
			parts := 2
			i = skipDelimited(s, i, parts)
			start := i
			for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') && s[i] != 'w' {
				i++
			}
			flags := s[start:i]
			if c == 's' && strings.ContainsRune(flags, 'e') {
				a.flag(High, "sed s///e runs the result as a shell command")
			}
			if i < len(s) && s[i] == 'w' {
				i++
				if f := restOfLine(); f != "" {
					a.writeTarget(a.resolve(literalArg(f)), "sed w writes")
				}
			}
		case c == 'e':
			i++
			cmd := restOfLine()
			a.flag(High, "sed e runs a shell command")
			if cmd != "" {
				a.script(cmd)
			}
		case c == 'w' || c == 'W':
			i++
			if f := restOfLine(); f != "" {
				a.writeTarget(a.resolve(literalArg(f)), "sed w writes")
			}
		case c == 'r' || c == 'R':
			i++
			if f := restOfLine(); f != "" {
				if t := a.resolve(literalArg(f)); a.readsCredential(t) || isProcEnviron(literalArg(f)) {
					a.flag(High, "sed r reads "+t.shown)
				}
			}
		case c == 'a' || c == 'i' || c == 'c' || c == ':' || c == 'b' || c == 't' || c == 'T' || c == '#':
			i++
			restOfLine()
		default:
			i++
		}
	}
}

// skipDelimited skips n delimited fields starting at s[i], the delimiter
// (s[i]) included, and returns the index after the last delimiter.
func skipDelimited(s string, i, n int) int {
	d := s[i]
	i++
	for n > 0 && i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case d:
			n--
		}
		i++
	}
	return min(i, len(s))
}
