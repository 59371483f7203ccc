package tools

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The walk checks credential stores per directory (grep_credentials.go).
// A workspace that holds the home directory deep inside it (a workspace at
// /home with $HOME /home/u) has the stores below directories that are
// themselves no store: a grep of the whole workspace must still skip every
// store and every credential named so, and read the rest.
func TestGrepSkipsStoresBelowTheStart(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{
		"users/u/.aws/credentials":       "secret-aws-material\n",
		"users/u/.config/gh/hosts.yml":   "secret-gh-material\n",
		"users/u/.ssh/id_ed25519":        "secret-key-material\n",
		"users/u/.bash_history":          "secret-history-material\n",
		"users/u/.ssh/id_ed25519.pub":    "public-key-material\n",
		"users/u/.config/other/app.conf": "ordinary-config-material\n",
		"users/u/notes.txt":              "ordinary-home-material\n",
		"other/.env":                     "secret-env-material\n",
		"other/server.key":               "secret-keyfile-material\n",
		"other/main.go":                  "ordinary-source-material\n",
	})
	t.Setenv("HOME", filepath.Join(root, "users", "u"))
	res, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "material"})
	if err != nil {
		t.Fatal(err)
	}
	for _, leaked := range []string{"secret-aws-material", "secret-gh-material", "secret-key-material",
		"secret-history-material", "secret-env-material", "secret-keyfile-material"} {
		if strings.Contains(res.Output, leaked) {
			t.Errorf("grep of a workspace holding $HOME read a credential (%s):\n%s", leaked, res.Output)
		}
	}
	for _, kept := range []string{"public-key-material", "ordinary-config-material", "ordinary-home-material", "ordinary-source-material"} {
		if !strings.Contains(res.Output, kept) {
			t.Errorf("grep skipped %s, an ordinary file:\n%s", kept, res.Output)
		}
	}
}

// The per-directory verdict is the per-file one (CredentialRead) for
// files in, above, beside and far from the stores.
func TestWalkCredentialsAgreeWithCredentialRead(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	c := newWalkCredentials()
	dirs := []string{"/", "/home", "/home/u", "/home/u/.ssh", "/home/u/.ssh/sub", "/home/u/.sshx", "/home/u/.config",
		"/home/u/.config/gh", "/home/u/.config/ghx", "/home/u/proj", "/home/u/proj/.ssh", "/home/uv", "/etc", "/etc/ssh",
		"/etc/sshd", "/srv/work", "/tmp/x/.aws", "/home/u/.docker", "/home/u/.local/share/agent-lsp/s"}
	names := []string{"id_rsa", "id_rsa.pub", "credentials", "config.json", "config", "hosts.yml", "known_hosts",
		"ssh_host_rsa_key", "ssh_host_rsa_key.pub", "shadow", "gshadow", ".aws", ".env", ".env.example", "main.go",
		".bash_history", "settings.xml", ".pgpass"}
	checked := 0
	for _, d := range dirs {
		for _, n := range names {
			abs := filepath.Join(d, n)
			if got, want := c.file(d, n), CredentialRead(abs); got != want {
				t.Errorf("%s: per-directory check says %v, CredentialRead %v", abs, got, want)
			}
			checked++
		}
	}
	if c.mayHoldStore("/srv/work") {
		t.Errorf("/srv/work holds no store, yet it is checked file by file: the fast path is never taken")
	}
	t.Logf("%d paths agree", checked)
}
