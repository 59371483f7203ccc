package permission

import (
	"os"
	"path"
	"strings"
)

// Sensitive places are judged before workspace membership and before the
// /tmp rule: when the workspace is $HOME, or $HOME lies under /tmp, a write
// to ~/.bashrc is still a write to a file that runs code at every login.

// homeRunsCode are paths under home whose change runs code later (shell
// and editor start-up files, autostart entries, user services, git's
// global config) or grants access (ssh keys, authorized_keys).
var homeRunsCode = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
	".zshenv", ".zlogin", ".zlogout", ".cshrc", ".tcshrc", ".login", ".logout", ".kshrc", ".mkshrc",
	".inputrc", ".xprofile", ".xinitrc", ".xsession", ".xsessionrc", ".pam_environment",
	".vimrc", ".exrc", ".emacs", ".emacs.d", ".config/nvim", ".config/fish",
	".config/environment.d", ".config/autostart", ".config/systemd", ".local/share/systemd",
	".config/git", ".gitconfig", ".ssh", ".gnupg", "Library/LaunchAgents",
}

// homeCredentials are credential stores under home: reading them hands a
// secret to whoever sees the output (the model provider included), writing
// them swaps a credential or a registry.
var homeCredentials = []string{
	".aws", ".config/gcloud", ".azure", ".kube", ".docker/config.json", ".netrc", ".git-credentials",
	".npmrc", ".yarnrc.yml", ".pypirc", ".password-store", ".local/share/keyrings", ".config/gh",
	".cargo/credentials", ".cargo/credentials.toml", ".gem/credentials", ".vault-token", ".pgpass",
	".my.cnf", ".config/containers/auth.json", ".terraform.d/credentials.tfrc.json",
	".config/rclone", ".s3cfg", ".gnupg", ".ssh", ".bash_history", ".zsh_history", ".python_history",
	".psql_history", ".mysql_history", ".node_repl_history", ".local/share/fish/fish_history",
}

// agentDirs are the agent's own configuration and state under home:
// workspace trust decisions, sessions, settings. A command that changes
// them changes what the agent trusts.
var agentDirs = []string{".config/agent-lsp", ".local/state/agent-lsp", ".local/share/agent-lsp", ".cache/agent-lsp"}

// systemRunsCode are system paths that run code later or grant root; the
// other system trees (systemTrees) are judged after workspace membership,
// so a workspace under /opt or /var/www stays editable.
var systemRunsCode = []string{"/etc/cron", "/etc/anacrontab", "/var/spool/cron", "/var/spool/at",
	"/etc/systemd", "/usr/lib/systemd", "/lib/systemd", "/etc/sudoers", "/etc/sudoers.d", "/etc/profile", "/etc/profile.d",
	"/etc/bash.bashrc", "/etc/zsh", "/etc/environment", "/etc/ld.so.preload", "/etc/rc.local",
	"/etc/init.d", "/etc/xdg/autostart", "/etc/passwd", "/etc/shadow", "/etc/group", "/etc/pam.d",
	"/etc/ssh", "/Library/LaunchAgents", "/Library/LaunchDaemons"}

// xdgRelocatable are the homeRunsCode and agentDirs entries under
// ~/.config, ~/.local/state and ~/.local/share whose real place follows
// XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_DATA_HOME when those are set.
var xdgRelocatable = map[string][]string{
	"XDG_CONFIG_HOME": {"agent-lsp", "git", "systemd", "autostart", "fish", "environment.d", "nvim", "gh", "gcloud"},
	"XDG_STATE_HOME":  {"agent-lsp"},
	"XDG_DATA_HOME":   {"agent-lsp", "systemd", "keyrings"},
}

// RunsCodeUnderHome returns the absolute places under home whose change
// runs code later or grants access, and the agent's own state: the home
// entries SensitivePath judges (start-up and editor files, ~/.ssh, user
// units, git's global config, ...) and where XDG_CONFIG_HOME,
// XDG_STATE_HOME and XDG_DATA_HOME, when set in this process, move them.
// The command sandbox keeps them read-only even when the workspace is the
// home itself, so that what a rating cannot see into (inline code) cannot
// plant code there either. Nil when home is not absolute.
func RunsCodeUnderHome(home string) []string {
	if !strings.HasPrefix(home, "/") {
		return nil
	}
	home = path.Clean(home)
	var out []string
	for _, list := range [][]string{homeRunsCode, agentDirs} {
		for _, s := range list {
			out = append(out, home+"/"+s)
		}
	}
	for env, names := range xdgRelocatable {
		dir := os.Getenv(env)
		if !strings.HasPrefix(dir, "/") {
			continue
		}
		for _, n := range names {
			out = append(out, path.Join(dir, n))
		}
	}
	return out
}

// SensitivePath reports whether writing the absolute path p would change
// something that runs code later, grants access or holds credentials,
// wherever the workspace is: shell start-up files, ~/.ssh, ~/.gnupg,
// autostart entries, systemd user units, crontabs, git's global config,
// credential stores, the agent's own state, and any repository's
// .git/hooks and .git/config. why says which, for the approval prompt.
// home is the user's home directory ("" if unknown: then only the
// home-independent rules apply). XDG_CONFIG_HOME, XDG_STATE_HOME and
// XDG_DATA_HOME, when set in this process, add the places they move
// (git's config, user units, the agent's state).
func SensitivePath(p, home string) (why string, ok bool) {
	if !strings.HasPrefix(p, "/") {
		return "", false
	}
	p = path.Clean(p)
	if home != "" && strings.HasPrefix(home, "/") {
		home = path.Clean(home)
		for _, s := range homeRunsCode {
			if within(p, home+"/"+s) {
				return "start-up file, ssh or git configuration: runs code or grants access later", true
			}
		}
		for _, list := range [][]string{homeCredentials, homeToolStores} {
			for _, s := range list {
				if within(p, home+"/"+s) {
					return "credential store", true
				}
			}
		}
		for _, s := range agentDirs {
			if within(p, home+"/"+s) {
				return "the agent's own configuration or state", true
			}
		}
	}
	for env, names := range xdgRelocatable {
		dir := os.Getenv(env)
		if !strings.HasPrefix(dir, "/") {
			continue
		}
		for _, n := range names {
			if within(p, path.Join(dir, n)) {
				return "configuration that runs code later or the agent's own state", true
			}
		}
	}
	for _, s := range systemRunsCode {
		if within(p, s) || s == "/etc/cron" && strings.HasPrefix(p, s) {
			return "system file that runs code or grants access", true
		}
	}
	if gitRunsCode(p) {
		return "git hooks or repository config: runs code on the next git command", true
	}
	return "", false
}

// gitRunsCode reports whether a slash path (absolute or relative) is a
// repository's hooks or config: .git/hooks/…, .git/config,
// .git/config.worktree, and the same inside .git/modules/… and
// .git/worktrees/….
func gitRunsCode(p string) bool {
	parts := strings.Split(p, "/")
	for i, seg := range parts {
		if !strings.EqualFold(seg, ".git") {
			continue
		}
		rest := parts[i+1:]
		for j, r := range rest {
			r = strings.ToLower(r)
			if r == "hooks" || (j == len(rest)-1 && (r == "config" || r == "config.worktree" || r == "commondir")) {
				return true
			}
		}
	}
	return false
}

// readsCredential reports whether a known target is a credential file a
// read would reveal; public keys and known_hosts are not secrets.
func (a *assessor) readsCredential(t target) bool {
	return t.path != "" && a.home != "" && CredentialPath(t.path, a.home)
}

// CredentialPath reports whether reading the absolute slash path p would
// reveal a secret: a credential store under home (~/.ssh private keys,
// ~/.aws, ~/.netrc, shell histories, build tool and package manager
// settings, browser and editor profile stores, ...), the agent's own state, or the
// system's shadow files and host keys. Public keys, known_hosts,
// authorized_keys and ~/.ssh/config are not secrets. The file tools ask
// for such reads as HIGH and grep does not walk into them, as run_bash's
// rating does for cat: with the workspace at $HOME they are "inside".
func CredentialPath(p, home string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	p = path.Clean(p)
	base := path.Base(p)
	if home != "" {
		home = path.Clean(home)
	}
	if strings.HasSuffix(base, ".pub") || base == "known_hosts" || base == "authorized_keys" || base == "config" && home != "" && within(p, home+"/.ssh") {
		return false
	}
	if p == "/etc/shadow" || p == "/etc/gshadow" || within(p, "/etc/ssh") && strings.Contains(base, "_key") && !strings.HasSuffix(base, ".pub") {
		return true
	}
	if home == "" || !strings.HasPrefix(home, "/") {
		return false
	}
	for _, list := range [][]string{homeCredentials, homeToolStores} {
		for _, c := range list {
			if within(p, home+"/"+c) {
				return true
			}
		}
	}
	for _, c := range agentDirs {
		if within(p, home+"/"+c) {
			return true
		}
	}
	return false
}

// isProcEnviron reports whether an expanded word names a process's
// environment (/proc/<pid>/environ, /proc/self/environ, a glob of them, or
// environ read after cd /proc/<pid>).
func isProcEnviron(x arg) bool {
	t := strings.TrimRight(x.text, "/")
	return t == "environ" || strings.HasSuffix(t, "/environ")
}

// isProcMemory reports whether a word names a process's memory.
func isProcMemory(x arg) bool {
	return strings.HasPrefix(x.text, "/proc/") && (strings.HasSuffix(x.text, "/mem") || strings.HasSuffix(x.text, "/maps") ||
		strings.HasSuffix(x.text, "/pagemap"))
}

// credentialUsers read a credential to use it, which is their job (ssh -i
// key); metadataOnly look at a path without reading its content.
var (
	credentialUsers = set("ssh", "scp", "sftp", "ssh-add", "ssh-keygen", "ssh-copy-id", "gpg", "gpg2",
		"aws", "gcloud", "az", "kubectl", "helm", "docker", "podman", "pass", "gh", "git")
	metadataOnly = set("ls", "ll", "la", "dir", "stat", "test", "[", "du", "file", "realpath", "readlink",
		"dirname", "basename", "mkdir", "tree", "chmod", "chown", "chgrp", "touch", "rm", "rmdir", "unlink",
		"cd", "pushd", "which", "type", "echo", "printf", "mv", "cp", "install", "tee", "truncate")
)

// secretReads flags words of a command that reveal secrets: a process's
// environment or memory (the daemon's keys), and credential files whose
// content would reach the output and so the model provider.
func (a *assessor) secretReads(prog string, rest []arg) {
	for _, x := range rest {
		if isProcEnviron(x) && !strings.ContainsAny(x.text, " \n") && prog != "ls" && prog != "stat" && prog != "test" && prog != "[" {
			a.flag(High, prog+" reads a process's environment (where the daemon's keys live): "+x.raw())
			continue
		}
		if isProcMemory(x) && prog != "ls" {
			a.flag(High, prog+" reads a process's memory: "+x.raw())
			continue
		}
		if credentialUsers[prog] || metadataOnly[prog] || !x.known || x.isOption() {
			continue
		}
		y := x
		if v, ok := strings.CutPrefix(y.text, "file://"); ok {
			y.text = v
		} else if _, v, ok := strings.Cut(y.text, "="); ok && strings.HasPrefix(y.text, "-") {
			y.text = v // --file=~/.aws/credentials
		}
		if t := a.resolve(y); a.readsCredential(t) {
			a.flag(High, prog+" reads credentials: "+t.shown)
		}
	}
	// cp, mv, tee, ...: the source is copied somewhere readable.
	if prog == "cp" || prog == "mv" || prog == "install" || prog == "rsync" || prog == "ln" || prog == "scp" {
		sources := operands(rest, set("-t", "--target-directory", "-e", "--rsh", "-m", "-o", "-g", "-S", "--suffix"))
		if len(sources) > 1 && !hasOption(rest, "-t") && !hasPrefixOption(rest, "--target-directory") {
			sources = sources[:len(sources)-1] // the last is the destination
		}
		for _, x := range sources {
			if t := a.resolve(x); x.known && a.readsCredential(t) {
				a.flag(High, prog+" copies credentials: "+t.shown)
			}
		}
	}
}
