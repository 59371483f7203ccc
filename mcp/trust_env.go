package mcp

import (
	"os"
	"sort"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
	"github.com/agent-lsp/agent-lsp/tools"
)

// What the trust popup shows of an entry's environment: every value as
// written (a secret by its name only, by the rules every child's
// environment is scrubbed with: tools.IsSecretEnv), and a warning for each
// variable that makes the server's interpreter or loader take code from
// the workspace. A trusted `python3 -m server` with PYTHONPATH=lib runs
// lib/'s code, which the bound files do not cover.

// loaderVariables is the one list of variables that make a program load
// code or configuration from where they point: the dynamic loader, the
// interpreters' module paths and start-up files, shells' start-up files,
// the JVM's options. Every LD_, DYLD_ and GIT_ variable counts
// (loaderPrefixes): git runs hooks, editors, pagers and ssh commands that
// its variables name.
var loaderVariables = map[string]bool{
	"PATH": true, "BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "PROMPT_COMMAND": true,
	"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONUSERBASE": true,
	"PYTHONPYCACHEPREFIX": true, "VIRTUAL_ENV": true, "UV_PROJECT": true,
	"NODE_OPTIONS": true, "NODE_PATH": true, "NODE_REPL_EXTERNAL_MODULE": true,
	"PERL5LIB": true, "PERLLIB": true, "PERL5OPT": true,
	"RUBYOPT": true, "RUBYLIB": true, "GEM_HOME": true, "GEM_PATH": true, "BUNDLE_GEMFILE": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "CLASSPATH": true,
	"LUA_PATH": true, "LUA_CPATH": true, "LUA_INIT": true, "PHPRC": true, "PHP_INI_SCAN_DIR": true,
	"R_PROFILE": true, "R_PROFILE_USER": true, "R_LIBS": true, "R_LIBS_USER": true,
	"TCLLIBPATH": true, "GOFLAGS": true, "DENO_DIR": true, "BUN_INSTALL": true,
}

var loaderPrefixes = []string{"LD_", "DYLD_", "GIT_"}

// isLoaderVariable reports whether name makes a program load code from
// where its value points.
func isLoaderVariable(name string) bool {
	up := strings.ToUpper(name)
	if loaderVariables[up] {
		return true
	}
	for _, p := range loaderPrefixes {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return false
}

// maxShownValue bounds one shown value; its middle is cut, never its tail.
const maxShownValue = 240

// environment is the popup's lines about the entry's env: each variable
// with its value (secret ones by name) and the warnings about loader
// variables pointing into the workspace.
func (e WorkspaceEntry) environment() (lines, warnings []string) {
	env := e.parsed.raw.Env
	names := make([]string, 0, len(env))
	for n := range env {
		names = append(names, n)
	}
	sort.Strings(names)
	d, dirsErr := serverDirs(e.parsed.raw, e.Root)
	for _, n := range names {
		v := env[n]
		shown := permission.VisibleLine(n, maxShownValue)
		if tools.IsSecretEnv(n, v) {
			lines = append(lines, shown+" (a secret: value not shown)")
		} else {
			lines = append(lines, shown+"="+permission.VisibleLine(v, maxShownValue))
		}
		if isLoaderVariable(n) && e.Root != "" && dirsErr == nil && valuePointsInside(v, d) {
			warnings = append(warnings, shown+" points into the workspace: its code runs in the server")
		}
	}
	return lines, warnings
}

// valuePointsInside reports whether a loader variable's value names a
// place in the workspace: any element of a path list, any option's value
// (`--require=./hook.js`, `-I./lib`, `-r ./x.js`), relative ones resolved
// from the server's working directory. An empty element of a path list is
// the working directory itself.
func valuePointsInside(v string, d dirs) bool {
	if strings.ContainsRune(v, os.PathListSeparator) {
		for _, el := range strings.Split(v, string(os.PathListSeparator)) {
			if strings.TrimSpace(el) == "" && d.inside(".") {
				return true
			}
		}
	}
	for _, tok := range strings.FieldsFunc(v, func(r rune) bool {
		return r == os.PathListSeparator || r == '=' || r == ' ' || r == '\t' || r == '\n' || r == ','
	}) {
		tok = strings.Trim(tok, `"'`)
		if strings.HasPrefix(tok, "--") || tok == "" || strings.Contains(tok, "${") || strings.Contains(tok, "://") {
			continue
		}
		if strings.HasPrefix(tok, "-") { // -I./lib, -r./hook.js: a short option with its value attached
			if len(tok) <= 2 {
				continue
			}
			tok = tok[2:]
		}
		if (strings.ContainsRune(tok, '/') || tok == "." || tok == ".." || exists(tok, d)) && d.inside(tok) {
			return true
		}
	}
	return false
}

// exists reports whether a bare word names something in the working
// directory (PYTHONPATH=lib).
func exists(w string, d dirs) bool {
	_, err := os.Lstat(joinUnlessAbs(d.cwd, w))
	return err == nil
}
