package tools

import (
	"os"
	"path/filepath"

	"github.com/agent-lsp/agent-lsp/permission"
)

// reasonCredentialRead is the risk reason of a file tool reading a
// credential store: what it reads goes to the model provider.
const reasonCredentialRead = "reads a credential store or key file (ssh keys, cloud credentials, .env, ...): its content would be sent to the model"

// CredentialRead reports whether reading the absolute path abs would
// reveal a secret: a credential store under home (permission.CredentialPath,
// against home as given and as resolved through symlinks: workspace paths
// are resolved) or, wherever it is, a file whose name says it holds one
// (permission.CredentialFile: .env, *.pem, id_rsa, a browser's Login
// Data). Only the file tools judge names: a command in the sandbox reads
// the workspace anyway, and its rating stays by store. With the
// workspace at $HOME, ~/.ssh/id_rsa is "inside" the workspace and still a
// secret: read_file asks for it as HIGH, grep does not walk into it, and
// the agent does not send it as the project's instructions. abs should
// have its symlinks resolved (Workspace.Resolve).
func CredentialRead(abs string) bool { return credentialReads()(abs) }

// credentialReads returns CredentialRead with home looked up once, for a
// walk that asks about every file.
func credentialReads() func(abs string) bool {
	homes := credentialHomes()
	return func(abs string) bool {
		if permission.CredentialFile(filepath.ToSlash(abs)) {
			return true
		}
		for _, h := range homes {
			if permission.CredentialPath(filepath.ToSlash(abs), h) {
				return true
			}
		}
		return false
	}
}

// credentialHomes is home as given and as resolved through symlinks
// (workspace paths are resolved), in slash form.
func credentialHomes() []string {
	home, _ := os.UserHomeDir()
	homes := []string{filepath.ToSlash(home)}
	if home != "" {
		if real, err := filepath.EvalSymlinks(home); err == nil && real != home {
			homes = append(homes, filepath.ToSlash(real))
		}
	}
	return homes
}
