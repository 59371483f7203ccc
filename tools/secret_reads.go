package tools

import (
	"os"
	"path/filepath"

	"github.com/agent-lsp/agent-lsp/permission"
)

// reasonCredentialRead is the risk reason of a file tool reading a
// credential store: what it reads goes to the model provider.
const reasonCredentialRead = "reads a credential store (ssh keys, cloud credentials, ...): its content would be sent to the model"

// CredentialRead reports whether reading the absolute path abs would
// reveal a secret (permission.CredentialPath), against home as given and
// as resolved through symlinks (workspace paths are resolved). With the
// workspace at $HOME, ~/.ssh/id_rsa is "inside" the workspace and still a
// secret: read_file asks for it as HIGH, grep does not walk into it, and
// the agent does not send it as the project's instructions. abs should
// have its symlinks resolved (Workspace.Resolve).
func CredentialRead(abs string) bool { return credentialReads()(abs) }

// credentialReads returns CredentialRead with home looked up once, for a
// walk that asks about every file.
func credentialReads() func(abs string) bool {
	home, _ := os.UserHomeDir()
	homes := []string{filepath.ToSlash(home)}
	if home != "" {
		if real, err := filepath.EvalSymlinks(home); err == nil && real != home {
			homes = append(homes, filepath.ToSlash(real))
		}
	}
	return func(abs string) bool {
		for _, h := range homes {
			if permission.CredentialPath(filepath.ToSlash(abs), h) {
				return true
			}
		}
		return false
	}
}
