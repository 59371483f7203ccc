package permission

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands whose output is a secret: whatever a command prints reaches
// the model, its provider and the session files, so printing a token is
// sending it.

// credentialPrinters rates CLIs that print stored tokens and passwords.
func (a *assessor) credentialPrinters(prog string, rest []arg) {
	ops := operands(rest, nil)
	word := func(i int) string {
		if i < len(ops) {
			return ops[i].text
		}
		return ""
	}
	why := ""
	switch prog {
	case "gh":
		if word(0) == "auth" && (word(1) == "token" || word(1) == "status" && hasOption(rest, "-t", "--show-token")) {
			why = "gh auth token prints the GitHub token"
		}
	case "gcloud":
		if word(0) == "auth" && (strings.HasPrefix(word(1), "print-") || word(2) == "print-access-token") {
			why = "gcloud auth print-… prints an access token"
		}
	case "aws":
		if word(0) == "configure" && (word(1) == "export-credentials" || word(1) == "get" && secretLookingName(word(2))) {
			why = "aws configure prints a secret key"
		}
		if word(0) == "sts" && strings.HasPrefix(word(1), "get-session-token") {
			why = "aws sts get-session-token prints credentials"
		}
	case "az":
		if word(0) == "account" && word(1) == "get-access-token" {
			why = "az account get-access-token prints a token"
		}
	case "kubectl":
		if word(0) == "config" && word(1) == "view" && hasOption(rest, "--raw", "--flatten") {
			why = "kubectl config view --raw prints cluster credentials"
		}
	case "security":
		if strings.HasPrefix(word(0), "find-") && strings.HasSuffix(word(0), "-password") {
			why = "security " + word(0) + " prints a keychain password"
		}
	case "secret-tool":
		if word(0) == "lookup" {
			why = "secret-tool lookup prints a stored secret"
		}
	case "pass", "gopass":
		if w := word(0); w == "" || w == "show" || w == "cat" || w == "otp" || !passSubcommands[w] {
			why = prog + " prints a stored password"
		}
	case "gpg", "gpg2":
		if hasOption(rest, "--export-secret-keys", "--export-secret-subkeys", "-d", "--decrypt") {
			why = prog + " exports or decrypts secrets"
		}
	case "op":
		if word(0) == "read" || word(0) == "item" && word(1) == "get" {
			why = "op prints a 1Password secret"
		}
	case "vault":
		if word(0) == "read" || word(0) == "kv" && word(1) == "get" || word(0) == "print" && word(1) == "token" {
			why = "vault prints a secret"
		}
	case "heroku":
		if word(0) == "auth:token" {
			why = "heroku auth:token prints the API token"
		}
	case "npm", "pnpm", "yarn", "pip", "pip3", "uv":
		if word(0) == "config" && (word(1) == "edit" || (word(1) == "set" || word(1) == "delete") && registryKey(word(2))) {
			why = prog + " config " + word(1) + " changes the package registry, its tokens or what installs run"
		}
	}
	if strings.HasPrefix(prog, "docker-credential-") && word(0) == "get" {
		why = prog + " get prints a registry credential"
	}
	if why != "" {
		a.flag(High, why)
	}
}

// registryKey reports whether a package-manager setting decides where
// packages come from, the tokens sent there, or what install scripts run.
func registryKey(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"registry", "auth", "token", "index", "trusted-host", "proxy", "cafile", "cert",
		"strict-ssl", "shell", "node-options", "prefix", "editor", "git", "userconfig", "globalconfig",
		"init-module", "ignore-scripts", "=", "//"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return k == "" || strings.Contains(k, unknownMark)
}

var passSubcommands = set("ls", "list", "find", "search", "init", "git", "insert", "generate", "edit", "rm", "mv", "cp", "grep", "help", "version")

// printsSecretVariable flags echo $GITHUB_TOKEN, printf %s "$API_KEY",
// printenv DEEPSEEK_API_KEY.
func (a *assessor) printsSecretVariable(prog string, rest []arg) {
	if prog == "printenv" {
		for _, x := range operands(rest, nil) {
			if secretLookingName(x.text) {
				a.flag(High, "printenv prints secret variable "+x.text)
			}
		}
		return
	}
	seen := map[*syntax.Word]bool{}
	for _, x := range rest {
		if x.word == nil || seen[x.word] {
			continue
		}
		seen[x.word] = true
		syntax.Walk(x.word, func(n syntax.Node) bool {
			if p, ok := n.(*syntax.ParamExp); ok && p.Param != nil && secretLookingName(p.Param.Value) {
				a.flag(High, prog+" prints secret variable $"+p.Param.Value)
			}
			return true
		})
	}
}

// recursiveReaders read every file below a directory operand.
func recursiveReader(prog string, rest []arg) bool {
	switch prog {
	case "rg", "ag":
		// They skip hidden entries (~/.ssh, ~/.aws) unless told otherwise.
		return hasOption(rest, "--hidden", "-.", "-uu", "-uuu", "--unrestricted")
	case "ack", "zip", "7z", "tar":
		return prog != "tar" || tarCreates(rest)
	case "grep", "egrep", "fgrep", "cp", "scp", "rsync", "zgrep":
		for _, x := range rest {
			if shortFlag(x, 'r', "--recursive") || shortFlag(x, 'R', "--dereference-recursive") ||
				(prog == "cp" || prog == "rsync") && shortFlag(x, 'a', "--archive") {
				return true
			}
		}
	}
	return false
}

func tarCreates(rest []arg) bool {
	if len(rest) == 0 {
		return false
	}
	first := strings.TrimPrefix(rest[0].text, "-")
	if !strings.HasPrefix(rest[0].text, "--") && strings.ContainsRune(first, 'c') {
		return true
	}
	return hasOption(rest, "-c", "--create")
}

// holdsCredentials reports whether a known target is home, an ancestor of
// home, or a glob of home's dot entries: reading all of it reads the
// credential stores too.
func (a *assessor) holdsCredentials(t target, x arg) bool {
	if a.home == "" || t.path == "" {
		return false
	}
	if within(a.home, t.path) && !t.children {
		return true
	}
	if t.children && (t.path == a.home || within(a.home, t.path)) && x.globAt >= 0 {
		tail := x.text[strings.LastIndex(x.text[:x.globAt], "/")+1:]
		return strings.HasPrefix(tail, ".") || strings.Contains(tail, "/")
	}
	return false
}

// bulkHomeReads flags reading the whole home directory (grep -r ~, tar c
// ~, cp -r ~ ., cat ~/.*/*), which includes every credential store.
func (a *assessor) bulkHomeReads(prog string, rest []arg) {
	recursive := recursiveReader(prog, rest)
	for _, x := range operands(rest, nil) {
		if !x.known {
			continue
		}
		t := a.resolve(x)
		if !a.holdsCredentials(t, x) {
			continue
		}
		if recursive || t.children && !metadataOnly[prog] && !credentialUsers[prog] {
			a.flag(High, prog+" reads all of "+t.shown+", credential stores included")
		}
	}
}

// volumeSource is the host side of docker -v SRC:DST or --mount src=SRC.
func volumeSource(v string) string {
	if strings.Contains(v, "src=") || strings.Contains(v, "source=") {
		for _, f := range strings.Split(v, ",") {
			if k, val, ok := strings.Cut(f, "="); ok && (k == "src" || k == "source") {
				return val
			}
		}
		return ""
	}
	src, _, _ := strings.Cut(v, ":")
	return src
}

// mountsSecrets flags containers given home, an ancestor of it, or a
// credential store: the container reads them with no prompt.
func (a *assessor) mountsSecrets(prog, sub string, rest []arg) {
	for i, x := range rest {
		var v string
		switch {
		case (x.text == "-v" || x.text == "--volume" || x.text == "--mount") && i+1 < len(rest):
			v = rest[i+1].text
		case strings.HasPrefix(x.text, "--volume=") || strings.HasPrefix(x.text, "--mount="):
			_, v, _ = strings.Cut(x.text, "=")
		case x.text == "--env-file" && i+1 < len(rest):
			if t := a.resolve(rest[i+1]); a.readsCredential(t) {
				a.flag(High, prog+" "+sub+" --env-file reads credentials: "+t.shown)
			}
			continue
		default:
			continue
		}
		src := volumeSource(v)
		if !strings.HasPrefix(src, "/") {
			continue
		}
		t := target{path: path.Clean(src), known: true}
		t.shown = a.describe(t)
		if a.readsCredential(t) || a.holdsCredentials(t, literalArg(src)) {
			a.flag(High, prog+" "+sub+" mounts "+t.shown+" (credentials) into a container")
		}
	}
}
