package permission

import (
	"strings"
)

// Git runs programs named in its configuration: hooks, fsmonitor, the ssh
// command, pagers, editors, ! aliases, credential helpers, diff and merge
// drivers, filters. Setting any of those (git config, git -c, clone
// --config, the GIT_* variables) is how a command makes the next
// harmless-looking git status run code, so it is HIGH.

// gitExecKeys are configuration keys (lower case) whose value git runs or
// that point git at code or config it then runs.
var gitExecKeys = set("core.hookspath", "core.fsmonitor", "core.sshcommand", "core.pager", "core.editor",
	"core.askpass", "core.gitproxy", "core.alternaterefscommand", "sequence.editor", "credential.helper",
	"diff.external", "gpg.program", "include.path", "init.templatedir", "safe.directory", "protocol.allow",
	"uploadpack.packobjectshook", "web.browser", "sendemail.smtpserver", "http.proxy", "https.proxy")

// gitExecKeyPatterns are key families: section.<name>.key (lower case).
var gitExecKeyPatterns = []struct{ prefix, suffix string }{
	{"credential.", ".helper"}, {"diff.", ".textconv"}, {"diff.", ".command"}, {"difftool.", ".cmd"},
	{"mergetool.", ".cmd"}, {"filter.", ".clean"}, {"filter.", ".smudge"}, {"filter.", ".process"},
	{"merge.", ".driver"}, {"gpg.", ".program"}, {"remote.", ".uploadpack"}, {"remote.", ".receivepack"},
	{"remote.", ".proxy"}, {"includeif.", ".path"}, {"pager.", ""}, {"browser.", ".cmd"}, {"man.", ".cmd"},
	{"protocol.", ".allow"}, {"url.", ".insteadof"}, {"url.", ".pushinsteadof"}, {"submodule.", ".update"},
	{"alias.", ""}, {"hook.", ".command"}, {"sendemail.", ".smtpserver"},
}

// harmlessKeyValues are values of program keys that run nothing new.
var (
	safePagers  = set("", "cat", "less", "more", "less -R", "less -r", "less -FRX", "less -FRSX", "less -FX", "false", "true")
	safeEditors = set("", "true", "false", ":", "cat", "vi", "vim", "nvim", "nano", "emacs", "code --wait",
		"code -w", "ed", "mg", "micro", "hx", "kak")
)

// builtinCredentialHelpers are the helpers git and the OS keychains ship;
// store (plain text in a file it is told) and anything else stay HIGH.
var builtinCredentialHelpers = set("cache", "osxkeychain", "libsecret", "manager", "manager-core", "wincred",
	"/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret")

// gitKeyRunsCode reports whether setting key (any case) to value makes git
// run a program, point at foreign config or widen trust.
func gitKeyRunsCode(key string, value arg) bool {
	k := strings.ToLower(key)
	v := strings.ToLower(strings.TrimSpace(value.text))
	switch {
	case k == "safe.directory":
		return true // any value widens which repositories git trusts
	case strings.HasPrefix(k, "protocol.") && strings.HasSuffix(k, ".allow"):
		return !value.known || v != "never" && v != "user"
	case value.known && (v == "" || v == "false" || v == "0" || v == "no" || v == "off" || v == "/dev/null"):
		return false // turns the program off: -c core.hooksPath=/dev/null, credential.helper=
	case k == "core.pager" || strings.HasPrefix(k, "pager."):
		return !value.known || !safePagers[strings.TrimSpace(value.text)]
	case k == "credential.helper":
		if !value.known {
			return true
		}
		if n, ok := strings.CutPrefix(v, "cache --timeout="); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return false
		}
		return !builtinCredentialHelpers[v]
	case k == "core.editor" || k == "sequence.editor":
		return !value.known || !safeEditors[strings.TrimSpace(value.text)]
	case strings.HasPrefix(k, "alias."):
		return !value.known || strings.HasPrefix(strings.TrimSpace(value.text), "!")
	case strings.HasPrefix(k, "submodule.") && strings.HasSuffix(k, ".update"):
		return !value.known || strings.HasPrefix(strings.TrimSpace(value.text), "!")
	case gitExecKeys[k]:
		return true
	}
	for _, p := range gitExecKeyPatterns {
		if strings.HasPrefix(k, p.prefix) && strings.HasSuffix(k, p.suffix) && len(k) > len(p.prefix)+len(p.suffix) {
			return true
		}
	}
	return false
}

// gitConfigSetting rates one key=value given to git (-c, clone --config,
// git config key value); an alias or submodule command starting with !
// is also read as shell.
func (a *assessor) gitConfigSetting(key string, value arg, via string) {
	if strings.Contains(key, unknownMark) {
		a.flag(High, via+" sets a git setting only known at run time")
		return
	}
	if !gitKeyRunsCode(key, value) {
		return
	}
	a.flag(High, via+" sets "+key+", which makes git run a program or trust other config")
	if v := strings.TrimSpace(value.text); value.known && strings.HasPrefix(v, "!") {
		a.script(strings.TrimPrefix(v, "!"))
	}
}

// gitGlobalOption rates git -c key=value and --config-env=key=VAR (the
// option at rest[i]).
func (a *assessor) gitGlobalOption(rest []arg, i int) {
	x := rest[i]
	switch {
	case x.text == "-c" && i+1 < len(rest):
		v := rest[i+1]
		key, value, _ := strings.Cut(v.text, "=")
		vv := v
		vv.text = value
		a.gitConfigSetting(key, vv, "git -c")
	case x.text == "--config-env" && i+1 < len(rest), strings.HasPrefix(x.text, "--config-env="):
		v := strings.TrimPrefix(x.text, "--config-env=")
		if x.text == "--config-env" {
			v = rest[i+1].text
		}
		key, _, _ := strings.Cut(v, "=")
		a.gitConfigSetting(key, arg{text: unknownMark, globAt: -1, src: "a value from the environment"}, "git --config-env")
	case strings.HasPrefix(x.text, "--exec-path="):
		a.flag(High, "git --exec-path runs git commands from another directory")
	}
}

// gitConfigCommand rates git config: setting a key that runs code.
func (a *assessor) gitConfigCommand(args []arg) {
	ops := operands(args, set("-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--fixed-value"))
	for _, x := range args {
		if x.text == "--edit" || x.text == "-e" {
			a.flag(High, "git config --edit: the settings written are not visible here")
		}
	}
	if hasOption(args, "--unset", "--unset-all", "--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch",
		"--remove-section", "--rename-section") {
		return
	}
	if len(ops) > 0 {
		switch ops[0].text {
		case "set":
			ops = ops[1:]
		case "get", "list", "unset", "remove-section", "rename-section":
			return
		case "edit":
			a.flag(High, "git config edit: the settings written are not visible here")
			return
		}
	}
	if len(ops) < 2 {
		return
	}
	a.gitConfigSetting(ops[0].text, ops[1], "git config")
}

// gitSubcommandCode rates what git subcommands run: --upload-pack, ext::
// URLs, clone --config, rebase --exec, submodule foreach, bisect run.
func (a *assessor) gitSubcommandCode(sub string, args []arg) {
	for i, x := range args {
		opt, val, hasVal := strings.Cut(x.text, "=")
		next := func() (arg, bool) {
			if hasVal {
				y := x
				y.text = val
				return y, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
			return arg{}, false
		}
		if strings.HasPrefix(strings.ToLower(x.text), "ext::") || strings.Contains(x.text, "::") && strings.HasPrefix(x.text, "ext") {
			a.flag(High, "git "+sub+" with an ext:: URL runs a command")
		}
		switch {
		case (sub == "clone" || sub == "fetch" || sub == "pull" || sub == "ls-remote" || sub == "archive" || sub == "push" ||
			sub == "submodule") && (opt == "--upload-pack" || opt == "--receive-pack" || opt == "--exec" || (opt == "-u" && sub == "clone")):
			a.flag(High, "git "+sub+" "+opt+" runs a program")
		case (sub == "clone" || sub == "init") && opt == "--template":
			a.flag(High, "git "+sub+" --template installs hooks from a template")
		case sub == "clone" && (opt == "--config" || opt == "-c"):
			if v, ok := next(); ok {
				key, value, _ := strings.Cut(v.text, "=")
				vv := v
				vv.text = value
				a.gitConfigSetting(key, vv, "git clone --config")
			}
		case sub == "rebase" && (opt == "-x" || opt == "--exec"):
			if v, ok := next(); ok {
				a.shellString(v, "git rebase --exec")
			}
		case sub == "difftool" && (opt == "-x" || opt == "--extcmd"):
			if v, ok := next(); ok {
				a.shellString(v, "git difftool --extcmd")
			}
		}
	}
	ops := operands(args, nil)
	switch sub {
	case "submodule":
		if len(ops) > 1 && ops[0].text == "foreach" {
			a.shellString(joinArgs(ops[1:]), "git submodule foreach")
		}
	case "bisect":
		if len(ops) > 1 && ops[0].text == "run" {
			for i, x := range args {
				if x.text == "run" {
					a.command(args[i+1:], nil) // the command keeps its own options
					break
				}
			}
		}
	case "credential", "credential-store", "credential-cache", "credential-osxkeychain", "credential-libsecret":
		a.flag(High, "git "+sub+" reads or changes stored credentials")
	}
}

// gitEnvRunsCode are variables whose value git (or ssh under it) runs or
// reads configuration from.
var gitEnvRunsCode = set("GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS",
	"GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
	"GIT_CONFIG", "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "GIT_ALLOW_PROTOCOL", "GIT_CONFIG_NOSYSTEM_UNSAFE")
