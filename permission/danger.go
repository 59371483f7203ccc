package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// How shell commands are rated (the policy acts on these levels: LOW and
// MEDIUM are asked once and may be allowed for the session, HIGH is asked
// every time, CRITICAL is refused without asking).
//
//	LOW       reads only: ls, cat, grep, git status/log/diff, go vet/list,
//	          find without -delete/-exec, echo, pwd, env
//	MEDIUM    everything else that is ordinary: builds, tests, installs,
//	          writes, edits and deletes inside the workspace (rm -f
//	          build/out.o, rm -rf ./build, > out.txt, find . -name '*.o'
//	          -delete), scripts, interpreters, unknown programs
//	HIGH      destructive but plausible: git push --force / +ref / --delete,
//	          git reset --hard, git clean -f, git checkout/restore ., rm -r
//	          outside the workspace or of the workspace itself or .git,
//	          rm -rf * in the workspace root (also when no root is known:
//	          such a glob is asked every time, never refused, because the
//	          directory is most likely the workspace; after `cd build` it
//	          is build/* and MEDIUM, like rm -rf build/*), deletes whose target
//	          is a variable not resolved, writes outside the workspace
//	          (~/.bashrc, ~/.ssh, /etc, .git/hooks), chmod/chown -R on system
//	          paths, sudo/su/doas anything, shred, partition editors,
//	          kill 1, pkill -u, shutdown, decoded data piped into a shell,
//	          command names computed at run time ($(echo rm)), code only
//	          known at run time run by bash -c / eval, publishing packages,
//	          and any command that does not parse; and (issue 12):
//	          writes to sensitive places wherever the workspace is
//	          (sensitive.go: start-up files, ~/.ssh, credential stores,
//	          systemd user units, crontabs, .git/hooks, .git/config, the
//	          agent's own state); git settings that run programs
//	          (git_config.go); uploads, raw sockets, /dev/tcp, remote
//	          copies and anything carrying the environment or a secret
//	          variable (rules_net.go, rules_sockets.go); reads of credentials, of
//	          /proc/*/environ and of all of home, tokens printed
//	          (rules_secrets.go); inline interpreter code, unless inert or
//	          held by the OS sandbox (inline.go); services, timers, cron,
//	          at, lingering (rules_persist.go); aliases and functions that
//	          shadow commands, BASH_ENV/LD_PRELOAD/PATH tricks, enable -f,
//	          source from outside the workspace (rules_shell.go); awk
//	          system() and sed e/w (rules_scripts.go)
//	CRITICAL  catastrophic: recursive delete (or mv away) of /, ~, $HOME,
//	          an ancestor of home or an OS directory (/usr, /etc, ...),
//	          including /* and ~/*; mkfs, wipefs, dd or any write to a disk
//	          device, shred of a device; fork bombs; kill -9 -1, killall5;
//	          a download run as code (curl | sh, bash <(curl …), sh -c
//	          "$(curl …)", curl -o x.sh && sh x.sh); chmod/chown -R of /
//
// The OS sandbox (ShellContext.SandboxFS and SandboxNet) lowers only
// what it holds: inline code to MEDIUM with both, uploads of ordinary
// files with the network half; credentials, the environment, git
// settings and sensitive writes stay HIGH.
//
// Paths are resolved against the first workspace root (and cd inside the
// command); ~ and $HOME against home. Unknown paths in a recursive delete
// or in a write are HIGH. Nothing is read from disk: symlinks are not
// followed, so a link inside the workspace pointing out of it is rated as
// inside.

// readOnlyPrograms only read, print or change the shell's own state.
var readOnlyPrograms = set("ls", "ll", "la", "dir", "cat", "head", "tail", "less", "more", "grep",
	"egrep", "fgrep", "rg", "ag", "ack", "wc", "echo", "printf", "pwd", "which", "whereis", "type",
	"file", "stat", "du", "df", "diff", "cmp", "tree", "cut", "tr", "jq", "date", "cal", "uname",
	"whoami", "id", "hostname", "ps", "printenv", "true", "false", "test", "[", "basename",
	"dirname", "realpath", "readlink", "seq", "sleep", "column", "nl", "od", "hexdump", "md5sum",
	"sha1sum", "sha256sum", "sha512sum", "shasum", "cksum", "base64", "fold", "fmt", "comm", "join",
	"paste", "tac", "rev", "strings", "expr", "ldd", "nm", "objdump", "man", "help", "cd", "pushd",
	"popd", ":", "locale", "free", "uptime", "who", "w", "lsof", "nproc", "getconf", "tput", "clear",
	"exit", "return", "set", "shopt", "wait", "jobs", "fd", "tokei", "cloc", "find", "sort", "uniq",
	"git", "go", "npm", "cargo", "hash", "umask", "history", "zcat", "xxd", "file", "lscpu", "env",
	"gofmt", "crontab", "fdisk", "sfdisk", "parted")

// lowSubcommands are the read-only subcommands of tools rated per subcommand.
var lowSubcommands = map[string]map[string]bool{
	"git": set("status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "ls-tree", "describe",
		"shortlog", "grep", "cat-file", "whatchanged", "rev-list", "merge-base", "name-rev",
		"for-each-ref", "show-ref", "count-objects", "check-ignore", "version", "help", "var",
		"ls-remote", "show-branch", "--version", "--help"),
	"go":    set("version", "env", "list", "doc", "vet", "help"),
	"npm":   set("ls", "list", "view", "info", "outdated", "help", "why", "explain", "search", "-v", "--version", "config"),
	"cargo": set("--version", "-V", "tree", "metadata", "search", "help", "check", "clippy"),
}

// highSubcommands are subcommands that change things outside the machine
// or destroy infrastructure.
var highSubcommands = map[string]map[string]string{
	"npm":       {"publish": "publishes a package", "unpublish": "unpublishes a package"},
	"yarn":      {"publish": "publishes a package"},
	"pnpm":      {"publish": "publishes a package"},
	"cargo":     {"publish": "publishes a crate"},
	"gem":       {"push": "publishes a gem"},
	"twine":     {"upload": "publishes a package"},
	"terraform": {"destroy": "destroys infrastructure"},
	"kubectl":   {"delete": "deletes cluster resources"},
	"helm":      {"uninstall": "uninstalls a release", "delete": "uninstalls a release"},
	"systemctl": {"poweroff": "shuts down the machine", "reboot": "reboots the machine", "halt": "halts the machine"},
}

// rate applies the rules of one program (wrappers already removed).
func (a *assessor) rate(prog string, rest []arg, redirs []*syntax.Redirect) {
	if !readOnlyPrograms[prog] {
		a.raise(Medium)
	}
	a.secretReads(prog, rest)
	a.bulkHomeReads(prog, rest)
	a.credentialPrinters(prog, rest)
	if prog == "echo" || prog == "printf" || prog == "printenv" {
		a.printsSecretVariable(prog, rest)
	}
	if subs, ok := highSubcommands[prog]; ok {
		if why, ok := subs[subcommand(prog, rest)]; ok {
			a.flag(High, prog+" "+why)
		}
	}
	if lows, ok := lowSubcommands[prog]; ok && prog != "git" {
		if sub := subcommand(prog, rest); sub != "" && !lows[sub] {
			a.raise(Medium)
		}
	}
	switch {
	case prog == "rm" || prog == "unlink" || prog == "rmdir" || prog == "srm":
		a.remove(prog, rest)
	case prog == "cd" || prog == "pushd":
		a.cd(rest)
	case prog == "git":
		a.git(rest)
	case prog == "find":
		a.find(rest)
	case prog == "dd":
		a.dd(rest)
	case strings.HasPrefix(prog, "mkfs") || prog == "mke2fs" || prog == "mkswap" || prog == "mkdosfs" ||
		prog == "mkntfs" || prog == "wipefs" || prog == "blkdiscard":
		a.flag(Critical, prog+" formats or wipes a disk")
	case prog == "fdisk" || prog == "sfdisk" || prog == "parted" || prog == "gdisk" || prog == "sgdisk" || prog == "cfdisk":
		if !hasOption(rest, "-l", "--list") {
			a.flag(High, prog+" edits a partition table")
		}
	case prog == "diskutil":
		if sub := subcommand(prog, rest); strings.HasPrefix(sub, "erase") || sub == "zeroDisk" || sub == "partitionDisk" {
			a.flag(Critical, "diskutil "+sub+" wipes a disk")
		}
	case prog == "shred" || prog == "wipe":
		a.shred(prog, rest)
	case prog == "chmod" || prog == "chown" || prog == "chgrp":
		a.chmod(prog, rest)
	case prog == "kill" || prog == "pkill" || prog == "killall" || prog == "killall5":
		a.kill(prog, rest)
	case prog == "tee":
		for _, x := range operands(rest, nil) {
			a.writeTarget(a.resolve(x), "tee writes")
		}
	case prog == "cp" || prog == "mv" || prog == "install" || prog == "ln" || prog == "rsync":
		a.copyMove(prog, rest)
	case prog == "sed":
		a.sed(rest)
	case prog == "truncate" || prog == "touch" || prog == "mkdir":
		for _, x := range operands(rest, set("-s", "-r", "-d", "-t", "-m", "--size", "--reference", "--date", "--mode")) {
			a.writeTarget(a.resolve(x), prog+" writes")
		}
	case prog == "sort" || prog == "uniq" || prog == "xxd":
		a.filterOutput(prog, rest)
	case prog == "curl" || prog == "wget":
		a.download(prog, rest)
	case prog == "tar" || prog == "unzip":
		a.extract(prog, rest)
	case prog == "shutdown" || prog == "reboot" || prog == "halt" || prog == "poweroff" ||
		(prog == "init" && len(rest) > 0 && (rest[0].text == "0" || rest[0].text == "6")):
		a.flag(High, prog+" shuts down or reboots the machine")
	case prog == "crontab" || prog == "systemctl" || prog == "systemd-run" || prog == "loginctl" || prog == "launchctl" ||
		prog == "at" || prog == "batch" || prog == "update-rc.d" || prog == "chkconfig" || prog == "rc-update" || prog == "rc-service":
		a.persistence(prog, rest)
	case prog == "nc" || prog == "ncat" || prog == "netcat" || prog == "socat" || prog == "telnet" || prog == "openssl":
		a.rawSocket(prog, rest)
	case prog == "scp" || prog == "sftp" || prog == "ftp" || prog == "lftp" || prog == "tftp" || prog == "smbclient" ||
		prog == "rclone" || prog == "gsutil" || prog == "aws" || prog == "az" || prog == "mail" || prog == "mailx" ||
		prog == "sendmail" || prog == "mutt":
		a.transfer(prog, rest)
		if prog == "scp" {
			a.copyMove(prog, rest)
		}
	case prog == "http" || prog == "https" || prog == "xh":
		a.uploads(prog, rest)
	case prog == "dig" || prog == "nslookup" || prog == "host" || prog == "ping" || prog == "ping6" || prog == "whois" ||
		prog == "traceroute":
		a.sendsSubstitutions(prog, rest, false)
	case prog == "ngrok" || prog == "cloudflared" || prog == "lt" || prog == "localtunnel" || prog == "bore":
		a.send(prog+" exposes this machine to the internet", false)
	case prog == "vi" || prog == "vim" || prog == "nvim" || prog == "nano" || prog == "emacs" || prog == "ex" ||
		prog == "ed" || prog == "micro" || prog == "pico" || prog == "joe" || prog == "code" || prog == "subl":
		a.editor(prog, rest)
	case prog == "ssh":
		if hasOption(rest, "-R") || hasPrefixOption(rest, "-R") && !hasOption(rest, "-Rn") {
			a.send("ssh -R opens this machine to the remote host", false)
		}
		for _, r := range redirs {
			if r.Op == syntax.RdrIn || r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc {
				a.send("ssh sends its input to another machine", false)
			}
		}
	case prog == "gh":
		if sub := subcommand(prog, rest); sub == "gist" || sub == "release" && hasOption(rest, "upload") {
			if hasOption(rest, "create", "edit", "upload") {
				a.flag(High, "gh "+sub+" uploads files")
			}
		}
	case prog == "ps":
		for _, x := range rest {
			if x.known && !strings.HasPrefix(x.text, "-") && strings.Trim(x.text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" &&
				strings.Contains(x.text, "e") {
				a.flag(High, "ps "+x.text+" shows other processes' environments")
			}
		}
	case prog == "gdb" || prog == "lldb" || prog == "gcore" || prog == "ltrace" || prog == "pstack" || prog == "eu-stack":
		if prog == "gcore" || prog == "pstack" || hasOption(rest, "-p", "--pid", "--attach", "attach") || hasPrefixOption(rest, "--pid=") {
			a.flag(High, prog+" attaches to a running process and can read its memory")
		}
	case prog == "awk" || prog == "gawk" || prog == "mawk" || prog == "nawk":
		a.awk(prog, rest)
	case prog == "alias" || prog == "unalias" || prog == "enable" || prog == "hash":
		a.shellBuiltins(prog, rest)
	case prog == "useradd" || prog == "userdel" || prog == "usermod" || prog == "passwd" ||
		prog == "chpasswd" || prog == "visudo" || prog == "groupadd" || prog == "groupdel":
		a.flag(High, prog+" changes user accounts")
	case prog == "docker" || prog == "podman":
		a.container(prog, rest)
	case isInterpreter(prog):
		a.interpreter(prog, rest, redirs)
	}
}

// hasOption reports whether any literal word equals one of opts.
func hasOption(args []arg, opts ...string) bool {
	for _, x := range args {
		for _, o := range opts {
			if x.text == o {
				return true
			}
		}
	}
	return false
}

// shortFlag reports whether a literal word is a cluster of short options
// containing c (-rf contains r), or the long option long.
func shortFlag(x arg, c byte, long string) bool {
	if !x.known || len(x.text) < 2 || x.text[0] != '-' {
		return false
	}
	if strings.HasPrefix(x.text, "--") {
		return long != "" && (x.text == long || strings.HasPrefix(x.text, long+"="))
	}
	return strings.IndexByte(x.text[1:], c) >= 0
}

// operands drops options (and the values of withValue options) and
// returns the rest; "--" ends the options. A word that may expand to
// options at run time is kept: it is an unknown operand.
func operands(args []arg, withValue map[string]bool) []arg {
	var out []arg
	opts := true
	for i := 0; i < len(args); i++ {
		x := args[i]
		if opts && x.known && x.text == "--" {
			opts = false
			continue
		}
		if opts && x.isOption() {
			if withValue[x.text] {
				i++
			}
			continue
		}
		out = append(out, x)
	}
	return out
}
