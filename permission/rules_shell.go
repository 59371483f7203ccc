package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell tricks change what a later, harmless-looking word runs: aliases
// and functions that shadow commands, variables that make every shell or
// program load code (BASH_ENV, LD_PRELOAD, ...), builtins loaded from a
// shared object, scripts sourced from outside the workspace.

// envRunsCode are variables that make shells, the dynamic loader or
// interpreters run code or load libraries the command does not name.
var envRunsCode = set("BASH_ENV", "ENV", "PROMPT_COMMAND", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT",
	"DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "PERL5OPT", "RUBYOPT", "LESSOPEN",
	"LESSCLOSE", "GCONV_PATH", "SHELLOPTS", "BASHOPTS", "PYTHONSTARTUP", "PYTHONWARNINGS", "BROWSER",
	"PS0", "PERL5DB", "ZDOTDIR")

// envMayRunCode are variables whose value is a program to run; the
// everyday values (cat, less, vim, true) are fine.
var envMayRunCode = map[string]map[string]bool{
	"PAGER": safePagers, "GIT_PAGER": safePagers, "MANPAGER": safePagers, "SYSTEMD_PAGER": safePagers,
	"EDITOR": safeEditors, "VISUAL": safeEditors, "GIT_EDITOR": safeEditors, "GIT_SEQUENCE_EDITOR": safeEditors,
}

// assignment rates setting a variable (X=v cmd, export X=v, env X=v).
func (a *assessor) assignment(name string, value arg) {
	up := strings.ToUpper(name)
	switch {
	case envRunsCode[name]:
		a.flag(High, "sets "+name+", which makes programs load or run code the command does not show")
	case gitEnvRunsCode[name] || strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
		a.flag(High, "sets "+name+", which makes git run a program or read other config")
	case envMayRunCode[name] != nil:
		if !value.known || !envMayRunCode[name][strings.TrimSpace(value.text)] {
			a.flag(High, "sets "+name+" to a program git or other tools will run: "+value.raw())
		}
	case name == "NODE_OPTIONS" || name == "JAVA_TOOL_OPTIONS" || name == "_JAVA_OPTIONS" || name == "JDK_JAVA_OPTIONS":
		v := value.text
		if !value.known || strings.Contains(v, "--require") || strings.Contains(v, "-r ") || strings.HasPrefix(v, "-r") ||
			strings.Contains(v, "--import") || strings.Contains(v, "--loader") || strings.Contains(v, "-javaagent") ||
			strings.Contains(v, "-agentpath") || strings.Contains(v, "-agentlib") {
			a.flag(High, "sets "+name+" to preload code")
		}
	case name == "PATH":
		a.pathHijack(value)
	case name == "XDG_CONFIG_HOME" || name == "GIT_DIR" || name == "GIT_COMMON_DIR":
		if t := a.resolve(value); !value.known || a.placeOf(t) != placeInside && a.placeOf(t) != placeRoot {
			a.flag(High, "sets "+name+" outside the workspace: programs read configuration (git hooks, fsmonitor) from there")
		}
	case up == "PS1" || up == "PS2" || up == "PS4":
		if strings.Contains(value.text, "$(") || strings.Contains(value.text, "`") {
			a.flag(High, "sets "+name+" to a prompt that runs commands")
		}
	}
}

// assigns rates the assignments of a call or declaration.
func (a *assessor) assigns(list []*syntax.Assign) {
	for _, as := range list {
		if as.Name == nil {
			continue
		}
		v := arg{known: true, globAt: -1}
		if as.Value != nil {
			v = a.exp.single(as.Value)
		}
		a.assignment(as.Name.Value, v)
	}
}

// declClause rates export/declare/local/readonly/typeset: their
// assignments, and declare -f/-x of functions is nothing new.
func (a *assessor) declClause(d *syntax.DeclClause) {
	a.assigns(d.Args)
	a.nested(d)
}

// shadowable are commands a function or alias must not silently replace.
func shadowable(name string) bool {
	return readOnlyPrograms[name] || subcommandTools[name] || interpreters[name] || optionsWithValue[name] != nil ||
		downloaders[name] || set("rm", "cp", "mv", "ls", "cd", "sudo", "su", "ssh", "scp", "make", "python3",
		"node", "pip", "exit", "source", "command_not_found_handle", "mkdir", "chmod", "tar", "unzip",
		"curl", "wget", "kill", "read", "printf", "echo", "test", "pytest", "cargo")[name]
}

// shellBuiltins rates alias, unalias, enable -f, hash -p and source.
func (a *assessor) shellBuiltins(prog string, rest []arg) {
	switch prog {
	case "alias":
		for _, x := range rest {
			name, value, ok := strings.Cut(x.text, "=")
			if !ok || x.isOption() {
				continue
			}
			a.flag(High, "defines alias "+name+": later words run something else")
			v := x
			v.text = value
			a.shellString(v, "alias "+name)
		}
	case "unalias":
		a.flag(High, "unalias changes what command names run")
	case "enable":
		if hasOption(rest, "-f") || hasPrefixOption(rest, "-f") {
			a.flag(High, "enable -f loads a builtin from a shared object")
		} else if hasOption(rest, "-n") {
			a.flag(High, "enable -n disables builtins, so a program of the same name runs instead")
		}
	case "hash":
		if hasOption(rest, "-p") {
			a.flag(High, "hash -p makes a command name run another program")
		}
	}
}

// editor rates editors run by a command: the files they open may be
// written, and -c/+ commands starting with ! run shell.
func (a *assessor) editor(prog string, rest []arg) {
	for i, x := range rest {
		cmd := ""
		switch {
		case (x.text == "-c" || x.text == "--cmd" || x.text == "-eval" || x.text == "--eval") && i+1 < len(rest):
			cmd = rest[i+1].text
		case strings.HasPrefix(x.text, "+"):
			cmd = x.text[1:]
		default:
			continue
		}
		if c := strings.TrimLeft(cmd, ": "); strings.HasPrefix(c, "!") || strings.HasPrefix(c, "call system") ||
			strings.HasPrefix(c, "lua") || strings.HasPrefix(c, "py") || strings.HasPrefix(c, "shell-command") {
			a.opaqueCode(prog + " runs a command given on its command line")
		}
	}
	for _, x := range operands(rest, set("-c", "--cmd", "-u", "-i", "-S", "-eval", "--eval", "-l", "--load")) {
		if strings.HasPrefix(x.text, "+") {
			continue
		}
		a.writeTarget(a.resolve(x), prog+" edits")
	}
}

// rcFile rates bash --rcfile/--init-file FILE: the shell sources it.
func (a *assessor) rcFile(rest []arg) {
	for i, x := range rest {
		if (x.text == "--rcfile" || x.text == "--init-file") && i+1 < len(rest) {
			a.sourcedFile(rest[i+1])
		}
	}
}

// pathHijack rates PATH assignments that put a temporary or unknown
// directory first: every later command name may then run a planted file.
func (a *assessor) pathHijack(value arg) {
	dirs, raws := strings.Split(value.text, ":"), strings.Split(strings.Trim(value.raw(), `"'`), ":")
	for i, dir := range dirs {
		shown := dir
		if len(raws) == len(dirs) {
			shown = raws[i]
			if shown == "$PATH" || shown == "${PATH}" {
				return // what comes after the existing PATH shadows nothing
			}
		}
		if dir == "" {
			continue
		}
		t := a.resolve(literalArg(dir))
		if strings.Contains(dir, unknownMark) || t.path != "" && (within(t.path, "/tmp") || within(t.path, "/var/tmp") ||
			within(t.path, "/dev/shm")) {
			a.flag(High, "PATH starts with "+shown+": later command names may run planted files")
			return
		}
	}
}

// toolchainInits are the environment scripts version managers install
// under home and tell users to source (nvm, rustup, sdkman, conda, ...):
// writing them is already HIGH (outside the workspace), so sourcing them
// is ordinary.
var toolchainInits = []string{".nvm/nvm.sh", ".cargo/env", ".sdkman/bin/sdkman-init.sh", ".rvm/scripts/rvm",
	".asdf/asdf.sh", ".ghcup/env", ".deno/env", ".local/bin/env", "miniconda3/etc/profile.d/conda.sh",
	"anaconda3/etc/profile.d/conda.sh", "miniforge3/etc/profile.d/conda.sh", ".pyenv/versions/default/bin/activate"}

// sourcedFile rates source/. of a file: one outside the workspace runs
// code the repository and the user did not see.
func (a *assessor) sourcedFile(file arg) {
	t := a.resolve(file)
	if !t.known {
		a.flag(High, "sources a file only known at run time: "+file.raw())
		return
	}
	if t.path == "/etc/os-release" || t.path == "/usr/lib/os-release" || t.path == "/dev/null" {
		return
	}
	if a.home != "" {
		for _, s := range toolchainInits {
			if t.path == a.home+"/"+s {
				return
			}
		}
	}
	if strings.HasPrefix(t.path, "/opt/ros/") && strings.HasSuffix(t.path, "/setup.bash") {
		return
	}
	switch a.placeOf(t) {
	case placeInside, placeRoot:
		return
	}
	a.flag(High, "sources "+t.shown+" from outside the workspace")
}
