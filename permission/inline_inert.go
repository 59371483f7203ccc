package permission

import (
	"regexp"
	"strings"
)

// Inert inline code is code too plain to touch files, processes or the
// network, checked by an allow-list, never a deny-list alone: python that
// imports only pure modules and calls no builtin that reaches the system,
// node that requires only pure modules or JSON files, perl that is one
// substitution without /e. Anything else (including anything the cheap
// tokenizer below does not understand) is opaque and HIGH.

// preloadsCode reports whether an interpreter's options load code besides
// the inline program: node -r/--require/--import/--loader, perl -M/-m
// (other than pragmas), ruby -r, python has none (its path comes first
// from the working directory, like running a script there).
func preloadsCode(lang string, rest []arg) bool {
	for _, x := range rest {
		t := x.text
		switch lang {
		case "node", "bun":
			if t == "-r" || t == "--require" || t == "--import" || strings.HasPrefix(t, "--require=") ||
				strings.HasPrefix(t, "--import=") || strings.Contains(t, "loader") {
				return true
			}
		case "perl":
			if (strings.HasPrefix(t, "-M") || strings.HasPrefix(t, "-m")) && !perlPragmas[strings.TrimLeft(t[2:], "-")] {
				return true
			}
		case "ruby":
			if strings.HasPrefix(t, "-r") {
				return true
			}
		}
	}
	return false
}

var perlPragmas = set("strict", "warnings", "utf8", "feature", "open", "integer", "bytes", "locale")

var identifier = LazyRegexp(`[A-Za-z_$][A-Za-z0-9_$]*`)

// stripStrings replaces string literals with "" so that their contents
// are not taken for code; ok is false when a string does not end or when
// the language interpolates code into it (` in JS, f-strings in python).
func stripStrings(code string, quotes string) (out string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(code); i++ {
		c := code[i]
		if !strings.ContainsRune(quotes, rune(c)) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != c {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(code) {
			return "", false
		}
		b.WriteString(`""`)
		i = j
	}
	return b.String(), true
}

var (
	pythonPureModules = set("sys", "json", "math", "re", "datetime", "time", "string", "textwrap", "collections",
		"itertools", "functools", "statistics", "decimal", "fractions", "random", "uuid", "platform", "struct",
		"base64", "hashlib", "binascii", "calendar", "pprint", "operator", "enum", "typing", "dataclasses",
		"bisect", "heapq", "locale", "unicodedata", "keyword", "shlex", "csv", "zlib", "tomllib", "sysconfig",
		"ast", "html", "difflib", "copy", "numbers", "secrets", "colorsys", "array")
	// pythonReach are names through which python code reaches files,
	// processes, the network or arbitrary code.
	pythonReach = set("open", "exec", "eval", "compile", "getattr", "setattr", "delattr", "globals", "locals",
		"vars", "breakpoint", "input", "help", "memoryview", "popen", "modules", "f_globals", "f_builtins",
		"f_locals", "f_back", "gi_frame", "cr_frame", "ag_frame", "tb_frame", "func_globals", "os", "subprocess",
		"importlib", "ctypes", "mro", "literal_eval_unsafe", "loader", "spec", "reload", "settrace", "setprofile",
		"addaudithook", "load_module", "exec_module", "system")
	nodePureModules = set("path", "util", "url", "assert", "os", "querystring", "string_decoder", "punycode",
		"node:path", "node:util", "node:url", "node:assert", "node:os")
	nodeReach = set("import", "eval", "Function", "constructor", "globalThis", "global", "fetch", "WebAssembly",
		"setTimeout", "setInterval", "setImmediate", "Deno", "Bun", "module", "exports", "Reflect", "Proxy",
		"XMLHttpRequest", "WebSocket", "Worker", "binding", "dlopen", "mainModule", "execSync", "spawn",
		"prototype", "__proto__", "defineProperty", "env", "chdir", "kill", "emit", "on", "openStdin", "exec",
		"this", "arguments", "getBuiltinModule", "execve", "prepareStackTrace", "caller", "callee", "dlopen")
	nodeProcessOK = set("version", "versions", "platform", "arch", "argv", "exit", "stdout", "cwd", "pid",
		"execPath", "release", "uptime", "memoryUsage", "hrtime")
	pyImport      = LazyRegexp(`(?m)(?:^|[;\s])(?:import\s+([A-Za-z0-9_., ]+)|from\s+([A-Za-z0-9_.]+)\s+import)`)
	nodeRequire   = LazyRegexp(`\brequire\s*\(\s*(?:'([^']*)'|"([^"]*)")\s*\)`)
	nodeProcess   = LazyRegexp(`\bprocess\b(\s*\.\s*([A-Za-z_$]+))?`)
	computedIndex = LazyRegexp(`[\w\])]\s*\[\s*""`)
	pyInfoDunder  = LazyRegexp(`(\.)__(?:version|file|path|name)__`)
	pyFString     = LazyRegexp(`(?i)(?:^|[^a-z0-9_])[rb]?f[rb]?['"]`)
	perlRegexOnly = LazyRegexp(`^\s*(?:print(?:\s+\$_)?\s+(?:if|unless)\s+)?/[^/]*/[imsx]*\s*;?\s*$`)
)

// inertCode reports whether inline code in lang is too plain to do harm.
// Non-ASCII code is never inert: python folds ｏｓ into os (NFKC).
func inertCode(lang, code string) bool {
	for i := 0; i < len(code); i++ {
		if code[i] >= 0x80 {
			return false
		}
	}
	switch lang {
	case "python":
		return inertPython(code)
	case "node", "bun":
		return inertNode(code)
	case "perl":
		return inertPerl(code)
	}
	return false
}

// inertPython accepts code that imports pure modules and uses builtins
// that reach nothing, plus version checks of any other module: import
// numpy; print(numpy.__version__) (the module is only imported, the way
// running a script would import it, and only its version is read).
func inertPython(code string) bool {
	code = pyInfoDunder().ReplaceAllString(code, "${1}dunderinfo")
	if strings.Contains(code, "__") || strings.Contains(code, "\\\n") {
		return false
	}
	var foreign []string // bound names of other modules, only for version checks
	for _, m := range pyImport().FindAllStringSubmatch(code, -1) {
		if m[2] != "" {
			if root, _, _ := strings.Cut(m[2], "."); !pythonPureModules[root] {
				return false
			}
			continue
		}
		for _, mod := range strings.Split(m[1], ",") {
			mod = strings.TrimSpace(mod)
			bound := mod
			if name, alias, ok := strings.Cut(mod, " as "); ok {
				mod, bound = strings.TrimSpace(name), strings.TrimSpace(alias)
			}
			root, _, _ := strings.Cut(mod, ".")
			switch {
			case pythonPureModules[root]:
			case pythonReach[root] || root == "antigravity" || root == "webbrowser" || strings.Contains(mod, "."):
				return false
			default:
				if bound == mod {
					bound = root
				}
				foreign = append(foreign, bound)
			}
		}
	}
	// f-strings evaluate code inside {…}: give up on them.
	if pyFString().MatchString(code) {
		return false
	}
	body, ok := stripStrings(code, `'"`)
	if !ok {
		return false
	}
	for _, id := range identifier().FindAllString(body, -1) {
		if pythonReach[id] || strings.HasPrefix(id, "_") {
			return false
		}
	}
	uses := pyImport().ReplaceAllString(body, " ")
	for _, name := range foreign {
		re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b(\s*\.\s*(\w+))?`)
		ms := re.FindAllStringSubmatch(uses, -1)
		if len(ms) == 0 {
			return false // imported for its side effects
		}
		for _, m := range ms {
			if m[2] != "dunderinfo" && m[2] != "version" && m[2] != "VERSION" {
				return false
			}
		}
	}
	return true
}

func inertNode(code string) bool {
	if strings.Contains(code, "`") || strings.Contains(code, "\\u") || strings.Contains(code, "\\x") {
		return false
	}
	for _, m := range nodeRequire().FindAllStringSubmatch(code, -1) {
		mod := m[1] + m[2]
		json := strings.HasSuffix(mod, ".json") && (strings.HasPrefix(mod, "./") || !strings.Contains(mod, "/"))
		if !nodePureModules[mod] && !json {
			return false
		}
	}
	body, ok := stripStrings(nodeRequire().ReplaceAllString(code, `req("")`), `'"`)
	if !ok || computedIndex().MatchString(body) {
		return false
	}
	for _, m := range nodeProcess().FindAllStringSubmatch(body, -1) {
		if !nodeProcessOK[m[2]] {
			return false
		}
	}
	for _, id := range identifier().FindAllString(body, -1) {
		if nodeReach[id] || id == "require" || strings.HasPrefix(id, "_") {
			return false
		}
	}
	return true
}

// inertPerl accepts perl -pe/-ne one-liners that only substitute,
// transliterate or print matching lines: s/a/b/g; tr/a-z/A-Z/; print if /x/.
// The e flag, code in the replacement (@{[ ]}, ${\ }) and regex code
// blocks ((?{ })) run code and are refused.
func inertPerl(code string) bool {
	if strings.Contains(code, "(?{") || strings.Contains(code, "(??{") || strings.Contains(code, "`") {
		return false
	}
	for _, stmt := range strings.Split(code, ";") {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" || perlRegexOnly().MatchString(stmt) {
			continue
		}
		if !perlSubstitution(stmt) {
			return false
		}
	}
	return true
}

// perlSubstitution reports whether stmt is one s///, tr/// or y/// with a
// punctuation delimiter and flags that run no code.
func perlSubstitution(stmt string) bool {
	var rest string
	switch {
	case strings.HasPrefix(stmt, "tr"):
		rest = stmt[2:]
	case strings.HasPrefix(stmt, "s"), strings.HasPrefix(stmt, "y"):
		rest = stmt[1:]
	default:
		return false
	}
	if rest == "" {
		return false
	}
	delim := rest[0]
	if !strings.ContainsRune("/|#!,:%", rune(delim)) {
		return false
	}
	parts, cur := []string{}, strings.Builder{}
	for i := 1; i < len(rest); i++ {
		c := rest[i]
		if c == '\\' && i+1 < len(rest) {
			cur.WriteByte(c)
			cur.WriteByte(rest[i+1])
			i++
			continue
		}
		if c == delim {
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	if len(parts) != 2 {
		return false
	}
	flags := cur.String()
	if strings.Trim(flags, "gimsxrcdu") != "" {
		return false // e, ee: the replacement is code
	}
	return !strings.Contains(parts[1], "@{") && !strings.Contains(parts[1], "${")
}
