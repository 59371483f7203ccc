package permission

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Code in other languages (python -c, node -e, ...) is not parsed; two
// cheap looks catch the blatant cases: a tree-deleting call on a literal
// path, and a string literal that is itself a dangerous shell command
// (os.system("rm -rf /")).
var (
	treeDelete    = regexp.MustCompile(`(?:rmtree|rm_rf|rm_r|rmSync|rmdirSync|remove_tree|remove_dir_all|rimraf|RemoveAll)\s*\(\s*(?:'([^']*)'|"([^"]*)")`)
	stringLiteral = regexp.MustCompile(`'([^'\n]{3,200})'|"([^"\n]{3,200})"`)
)

// maxInlineStrings bounds how many string literals are checked as shell.
const maxInlineStrings = 16

func (a *assessor) inlineCode(prog string, code arg) {
	if !code.known {
		return // downloads and decodes were rated by the caller
	}
	for _, m := range treeDelete.FindAllStringSubmatch(code.text, maxInlineStrings) {
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
	for _, m := range stringLiteral.FindAllStringSubmatch(code.text, maxInlineStrings) {
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
}

// credentialFiles are what must not be sent over the network.
var credentialFiles = []string{".ssh", ".aws", ".gnupg", ".netrc", ".kube", ".docker/config.json",
	".npmrc", ".pypirc", ".config/gh", ".git-credentials"}

func (a *assessor) isCredential(x arg) bool {
	t := a.resolve(x)
	if a.home == "" || t.path == "" {
		return false
	}
	for _, c := range credentialFiles {
		if within(t.path, a.home+"/"+c) {
			return true
		}
	}
	return false
}

// uploadsCredentials spots curl -d @~/.ssh/id_rsa, -F f=@..., -T file.
func (a *assessor) uploadsCredentials(prog string, rest []arg) {
	for i, x := range rest {
		v := x.text
		if _, after, ok := strings.Cut(v, "@"); ok && (strings.HasPrefix(v, "@") || strings.Contains(v, "=@")) {
			v = after
		} else if (x.text == "-T" || x.text == "--upload-file") && i+1 < len(rest) {
			v = rest[i+1].text
		} else {
			continue
		}
		y := x
		y.text, y.globAt = v, -1
		if a.isCredential(y) {
			a.flag(High, prog+" uploads credentials: "+a.resolve(y).shown)
		}
	}
}

// exfiltration spots credentials piped into a network tool
// (cat ~/.ssh/id_rsa | curl -d @- …).
func (a *assessor) exfiltration(stages []*syntax.Stmt) {
	secret := ""
	for _, s := range stages {
		call, ok := s.Cmd.(*syntax.CallExpr)
		if !ok {
			continue
		}
		prog, args := a.effective(a.exp.expandAll(call.Args))
		if secret != "" && downloaders[prog] {
			a.flag(High, prog+" sends credentials over the network: "+secret)
			return
		}
		for _, x := range args {
			if a.isCredential(x) {
				secret = a.resolve(x).shown
			}
		}
	}
}
