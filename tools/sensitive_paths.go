package tools

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-lsp/agent-lsp/permission"
)

// writeRisk is the risk of writing the workspace-relative path rel (slash
// separated) whose absolute path is abs, with the reason when it is raised.
//
// The absolute path is judged first, against home and the places that run
// code or hold credentials wherever the workspace is
// (permission.SensitivePath): with the workspace at $HOME, .bashrc is
// still a start-up file, and .git/hooks runs code in any repository.
// Those are HIGH, which auto-edit never lets through without asking.
//
// A protected workspace file (permission.ProtectedFiles: editor tasks and
// settings, direnv, exrc, git hook managers, .mcp.json, ...) is HIGH: an
// editor, git or a shell runs it later, outside every boundary.
//
// Writing a source file is MEDIUM: visible in the diff, undoable. Writing a
// file that usually holds secrets (.env, keys, credential files) or that
// runs with them (CI workflows) is HIGH: a change there can leak a secret
// or run code with it, and HIGH means the approval cannot be remembered for
// the session, so each such write is shown. Template files (.env.example)
// stay MEDIUM: they are meant to be committed and hold no secrets.
func writeRisk(rel, abs string, protected permission.ProtectedFiles) (permission.Risk, string) {
	if abs != "" {
		// Workspace paths are resolved through symlinks; so is home, in
		// case it is a link (/home/u -> /data/u).
		home, _ := os.UserHomeDir()
		homes := []string{home}
		if real, err := filepath.EvalSymlinks(home); err == nil && real != home {
			homes = append(homes, real)
		}
		for _, h := range homes {
			if why, ok := permission.SensitivePath(filepath.ToSlash(abs), filepath.ToSlash(h)); ok {
				return permission.High, why
			}
		}
	}
	if why, ok := protected.Match(rel); ok {
		return permission.High, why
	}
	base := strings.ToLower(path.Base(rel))
	lower := strings.ToLower(rel)
	switch {
	case base == ".env" || (strings.HasPrefix(base, ".env.") && !isEnvTemplate(base)):
		return permission.High, "environment file that usually holds secrets"
	case sensitiveNames[base]:
		return permission.High, "credentials file"
	case hasAnySuffix(base, ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"):
		return permission.High, "key or certificate file"
	case strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa"):
		return permission.High, "SSH key file"
	case strings.HasPrefix(lower, ".ssh/") || strings.Contains(lower, "/.ssh/"):
		return permission.High, "file in an .ssh directory"
	case strings.HasPrefix(lower, ".github/workflows/") || base == ".gitlab-ci.yml" || strings.HasPrefix(lower, ".circleci/"):
		return permission.High, "CI configuration that runs with repository secrets"
	}
	return permission.Medium, ""
}

var sensitiveNames = map[string]bool{
	".npmrc": true, ".pypirc": true, ".netrc": true, ".git-credentials": true,
	".htpasswd": true, ".pgpass": true, "credentials": true, "credentials.json": true,
	"secrets.yaml": true, "secrets.yml": true, "secrets.json": true,
	"authorized_keys": true, "known_hosts": true,
}

func isEnvTemplate(base string) bool {
	return hasAnySuffix(base, ".example", ".sample", ".template", ".dist")
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suf := range suffixes {
		if strings.HasSuffix(s, suf) {
			return true
		}
	}
	return false
}
