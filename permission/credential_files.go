package permission

import (
	"path"
	"strings"
)

// homeToolStores are the credential stores of build tools, package
// managers, CLIs, browsers and editors under home (homeCredentials holds
// the ssh, cloud and shell ones): reading one hands a repository
// password, a registry token, saved logins or an editor's stored sessions
// to whoever sees the output.
var homeToolStores = []string{
	// Build tools and package managers.
	".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties", ".yarnrc",
	".composer/auth.json", ".config/composer/auth.json", ".nuget/NuGet/NuGet.Config",
	".config/NuGet/NuGet.Config", ".bundle/config", ".terraformrc",
	// CLIs' host tokens.
	".config/git/credentials", ".config/hub", ".config/op",
	// Browser profiles: saved logins, cookies, their keys.
	".mozilla/firefox", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/vivaldi", ".config/opera", "snap/firefox/common/.mozilla",
	"snap/chromium/common/chromium", "Library/Application Support/Google/Chrome",
	"Library/Application Support/Firefox", "Library/Cookies", "Library/Keychains",
	// Editors' stored secrets (VS Code and its forks keep them in
	// globalStorage/state.vscdb).
	".config/Code/User/globalStorage", ".config/Code - OSS/User/globalStorage",
	".config/VSCodium/User/globalStorage", ".config/Cursor/User/globalStorage",
	".vscode-server/data/User/globalStorage", ".local/share/code-server/User/globalStorage",
	"Library/Application Support/Code/User/globalStorage",
}

// credentialFileNames are files that hold a credential wherever they are:
// in the workspace, in a copied profile, in a backup.
var credentialFileNames = set(".git-credentials", ".netrc", "_netrc", ".pgpass", ".pypirc", ".htpasswd",
	".vault-token", "Login Data", "Login Data For Account", "Cookies", "Web Data", "key3.db", "key4.db",
	"logins.json", "cookies.sqlite", "signons.sqlite", "state.vscdb")

// credentialFileExts are key and keystore files (a .pem may be only a
// certificate; its name cannot tell, so it is asked about all the same).
var credentialFileExts = set(".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".kdbx")

// sshKeyNames are the private key files ssh-keygen writes (id_rsa,
// id_ed25519_work, ...); their .pub halves are not secret.
var sshKeyNames = []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"}

// envTemplates are the suffixes of .env files that document variables
// rather than hold them.
var envTemplates = set(".example", ".sample", ".template", ".dist", ".defaults", ".tmpl")

// CredentialFile reports whether the slash path p names a file that holds
// a credential by its name alone, wherever it is: .env files (not their
// templates), private keys and keystores (*.pem, *.key, id_rsa, ...),
// .netrc and .git-credentials, browser login and cookie stores, VS Code's
// state.vscdb. The file tools ask for reading one as HIGH.
func CredentialFile(p string) bool {
	base := path.Base(p)
	if strings.HasSuffix(base, ".pub") {
		return false
	}
	if credentialFileNames[base] || credentialFileExts[strings.ToLower(path.Ext(base))] {
		return true
	}
	for _, k := range sshKeyNames {
		if base == k || strings.HasPrefix(base, k+"_") || strings.HasPrefix(base, k+"-") {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(base, ".env"); ok && (rest == "" || strings.HasPrefix(rest, ".")) {
		return !envTemplates[strings.ToLower(path.Ext(rest))]
	}
	return false
}

// CredentialStores returns the paths CredentialPath judges by place, for
// home: every path it reports is one of them or below one. A walk checks a
// directory against them once instead of every file in it.
func CredentialStores(home string) []string {
	stores := []string{"/etc/shadow", "/etc/gshadow", "/etc/ssh"}
	if home == "" || !strings.HasPrefix(home, "/") {
		return stores
	}
	home = path.Clean(home)
	for _, list := range [][]string{homeCredentials, homeToolStores, agentDirs} {
		for _, c := range list {
			stores = append(stores, home+"/"+c)
		}
	}
	return stores
}
