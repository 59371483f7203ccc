package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/agent-lsp/agent-lsp/permission"
)

// secretStoresInHome are where credentials live, relative to the home
// directory: commands may not read (nor write) them.
var secretStoresInHome = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".kube", ".netrc", ".git-credentials",
	".password-store", ".docker/config.json", ".config/gcloud", ".config/gh",
	".config/hub", ".config/rclone", ".local/share/keyrings", ".npmrc", ".pypirc",
	".cargo/credentials", ".cargo/credentials.toml", ".vault-token",
	".terraform.d/credentials.tfrc.json", ".config/agent-lsp", ".local/state/agent-lsp",
	// Build tools, package managers and CLIs (as permission's tool stores).
	".m2/settings.xml", ".m2/settings-security.xml", ".gradle/gradle.properties", ".yarnrc.yml",
	".config/git/credentials", ".config/containers/auth.json", ".composer/auth.json",
	".config/composer/auth.json", ".gem/credentials", ".pgpass", ".my.cnf", ".s3cfg",
	// Browser logins and cookies, editors' stored secrets.
	".mozilla/firefox", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", ".config/Code/User/globalStorage", ".config/VSCodium/User/globalStorage",
	".config/Cursor/User/globalStorage",
}

// secretStoresSystem are system-wide credential files (readable to root,
// which the daemon may be), each with the files in it that hold the
// secrets (itself, when it is a file).
var secretStoresSystem = []struct{ store, secrets string }{
	{"/etc/shadow", "/etc/shadow"}, {"/etc/gshadow", "/etc/gshadow"},
	{"/etc/ssh", "/etc/ssh/*_key"}, {"/etc/sudoers", "/etc/sudoers"}, {"/etc/sudoers.d", "/etc/sudoers.d"},
}

// readableSystemStores are the system stores whose secrets this process
// can read: all of them for root; for an ordinary user, usually none, as
// the files' own permissions keep them from it. Hiding a store splits
// its directory into a Landlock rule per entry, for every command (/etc
// holds about 150), so a store the user cannot read anyway is not hidden
// again.
func readableSystemStores() []string {
	var out []string
	for _, s := range secretStoresSystem {
		paths, _ := filepath.Glob(s.secrets)
		for _, p := range paths {
			if readable(p) {
				out = append(out, s.store)
				break
			}
		}
	}
	return out
}

// readable reports whether this process may read p: opened for reading
// and closed at once (non-blocking, so that a FIFO cannot hold it), which
// asks the kernel the question access(2) would, on every platform.
func readable(p string) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// writeProtectedInHome are files that run code at login or on a schedule,
// or configure git: readable, never writable, even when the workspace is
// the home directory itself.
var writeProtectedInHome = []string{
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".config/fish", ".gitconfig",
	".config/git", ".config/autostart", ".config/systemd", ".config/environment.d",
	".local/bin", ".ssh", ".xprofile", ".xsession", ".xinitrc", ".pam_environment",
}

// hiddenPaths are the paths commands may not read: the secret stores, the
// XDG state and config dirs of the agent, and the extra ones configured.
func hiddenPaths(home string, extra []string) []string {
	var out []string
	if home != "" {
		for _, p := range secretStoresInHome {
			out = append(out, filepath.Join(home, p))
		}
	}
	for _, env := range []string{"XDG_STATE_HOME", "XDG_CONFIG_HOME"} {
		if d := os.Getenv(env); filepath.IsAbs(d) {
			out = append(out, filepath.Join(d, "agent-lsp"))
		}
	}
	out = append(out, readableSystemStores()...)
	return withResolved(append(out, extra...))
}

// writeProtected are the paths commands may not write even inside a
// writable directory: this package's list and every place the risk rules
// call code-running or access-granting (permission.RunsCodeUnderHome:
// editor start-up files, XDG-relocated user units and git config, ...),
// so that inline code the rules rate below HIGH because the sandbox
// contains it cannot plant code there either.
func writeProtected(home string) []string {
	if home == "" {
		return nil
	}
	out := make([]string, 0, len(writeProtectedInHome))
	for _, p := range writeProtectedInHome {
		out = append(out, filepath.Join(home, p))
	}
	for _, p := range permission.RunsCodeUnderHome(filepath.ToSlash(home)) {
		if p = filepath.FromSlash(p); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return withResolved(out)
}

// withResolved adds, for each path that is or goes through a symlink,
// the path it resolves to: Landlock rules follow the file itself, so a
// secret store reached through a link is excluded where it really is.
func withResolved(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		p = filepath.Clean(p)
		out = append(out, p)
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			out = append(out, r)
		}
	}
	return out
}
