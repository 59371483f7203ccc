package permission

import (
	"strings"
)

// Code in other languages (python -c, node -e, ...) is not parsed, so it
// is HIGH: the detector cannot see what it does. Three exceptions lower
// it to MEDIUM: code too plain to do harm (inert: print(1), a perl s///,
// see inline_inert.go), and code run under the OS sandbox
// (ShellContext.SandboxFS and SandboxNet), which holds its writes and its
// network. Code that names a start-up file, credentials, git hooks or a
// process's environment stays HIGH even there. Two cheap looks catch the
// blatant cases first: a tree-deleting call on a literal path, and a
// string literal that is itself a dangerous shell command
// (os.system("rm -rf /")).
var (
	treeDelete    = LazyRegexp(`(?:rmtree|rm_rf|rm_r|rmSync|rmdirSync|remove_tree|remove_dir_all|rimraf|RemoveAll)\s*\(\s*(?:'([^']*)'|"([^"]*)")`)
	stringLiteral = LazyRegexp(`'([^'\n]{3,200})'|"([^"\n]{3,200})"`)
)

// maxInlineStrings bounds how many string literals are checked as shell.
const maxInlineStrings = 16

func (a *assessor) inlineCode(prog string, code arg) {
	if !code.known {
		if a.feeds(code.word) == feedOther { // downloads and decodes were rated by the caller
			a.opaqueCode(prog + " runs code only known at run time")
		}
		return
	}
	for _, m := range treeDelete().FindAllStringSubmatch(code.text, maxInlineStrings) {
		p := m[1] + m[2]
		if p == "~" || strings.HasPrefix(p, "~/") {
			if a.home == "" {
				a.flag(High, prog+" deletes a tree under ~")
				continue
			}
			p = a.home + p[1:]
		}
		a.deleteTarget(a.resolve(literalArg(p)), true, "delete")
	}
	for _, m := range stringLiteral().FindAllStringSubmatch(code.text, maxInlineStrings) {
		s := m[1] + m[2]
		if !strings.Contains(s, " ") {
			continue
		}
		sub := newAssessor(a.roots, a.home)
		sub.parsed = maxScripts - 1 // one parse, no nesting budget to spend
		sub.script(s)
		if sub.risk >= Critical {
			a.flag(High, prog+" code holds a dangerous shell command: "+strings.Join(sub.reasons, "; "))
		}
	}
	if what := mentionsSensitive(code.text); what != "" {
		a.flag(High, prog+" code touches "+what)
		return
	}
	if inertCode(langOf(prog), code.text) {
		a.raise(Medium)
		return
	}
	a.opaqueCode(prog + " runs inline code the detector cannot inspect")
}

// opaqueCode rates code the detector cannot see into: HIGH, or MEDIUM
// when the OS sandbox holds both its writes and its network.
func (a *assessor) opaqueCode(reason string) {
	if a.sandboxFS && a.sandboxNet {
		a.raise(Medium)
		return
	}
	a.flag(High, reason)
}

// sensitiveMentions are names whose appearance in inline code means it
// reaches for what the sandbox may not hold (a workspace that is home
// leaves ~/.bashrc writable) or what must never leave: start-up files,
// credentials, git hooks and config, persistence, environments.
var sensitiveMentions = []string{".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile",
	".zshenv", ".ssh", ".gnupg", "authorized_keys", ".gitconfig", ".git/hooks", ".git/config", ".config/git",
	"hooksPath", "fsmonitor", "sshCommand", "crontab", "/var/spool/cron", "autostart", "systemd",
	"LaunchAgents", ".aws", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".kube", ".docker/config",
	"/environ", "agent-lsp", "keyrings", ".password-store", "gcloud", ".azure", "LD_PRELOAD", "/dev/tcp/"}

func mentionsSensitive(code string) string {
	for _, m := range sensitiveMentions {
		if strings.Contains(code, m) {
			return m
		}
	}
	return ""
}
