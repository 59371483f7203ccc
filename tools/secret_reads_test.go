package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// With the workspace at $HOME, the credential stores are "inside" it:
// read_file of a private key or of cloud credentials is HIGH (asked every
// time; auto-edit and the read-only fast path do not cover it), grep of
// the workspace skips them, and grep aimed at a store is HIGH. Public
// keys and ordinary files stay LOW.
func TestCredentialReadsWorkspaceIsHome(t *testing.T) {
	env, root := newSearchEnv(t, map[string]string{
		".ssh/id_rsa":          "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-material\n",
		".ssh/id_rsa.pub":      "ssh-ed25519 AAAA public-key-material\n",
		".ssh/known_hosts":     "host ssh-ed25519 AAAA known-material\n",
		".aws/credentials":     "aws_secret_access_key = secret-aws-material\n",
		".bash_history":        "export TOKEN=secret-history-material\n",
		"notes.txt":            "ordinary-material\n",
		"proj/.ssh/config.txt": "not a home store: ordinary-nested-material\n",
	})
	t.Setenv("HOME", root)
	for _, c := range []struct {
		tool Tool
		args map[string]any
		risk permission.Risk
	}{
		{NewReadFile(), map[string]any{"path": ".ssh/id_rsa"}, permission.High},
		{NewReadFile(), map[string]any{"path": ".aws/credentials"}, permission.High},
		{NewReadFile(), map[string]any{"path": ".bash_history"}, permission.High},
		{NewReadFile(), map[string]any{"path": ".ssh/id_rsa.pub"}, permission.Low},
		{NewReadFile(), map[string]any{"path": ".ssh/known_hosts"}, permission.Low},
		{NewReadFile(), map[string]any{"path": "notes.txt"}, permission.Low},
		{NewGrep(), map[string]any{"pattern": "KEY", "path": ".ssh"}, permission.High},
		{NewGrep(), map[string]any{"pattern": "material"}, permission.Low},
	} {
		a, err := c.tool.Describe(t.Context(), argsJSON(t, c.args), env)
		if err != nil {
			t.Fatal(err)
		}
		if a.Risk != c.risk || (c.risk == permission.High && (len(a.Reasons) == 0 || !strings.Contains(a.Reasons[0], "credential store"))) {
			t.Errorf("%s %v: risk %s %q, want %s", c.tool.Name(), c.args, a.Risk, a.Reasons, c.risk)
		}
	}
	res, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "material"})
	if err != nil {
		t.Fatal(err)
	}
	for _, leaked := range []string{"secret-key-material", "secret-aws-material", "secret-history-material"} {
		if strings.Contains(res.Output, leaked) {
			t.Errorf("grep of the home workspace read a credential store (%s):\n%s", leaked, res.Output)
		}
	}
	for _, kept := range []string{"ordinary-material", "public-key-material", "ordinary-nested-material"} {
		if !strings.Contains(res.Output, kept) {
			t.Errorf("grep skipped %s, an ordinary file:\n%s", kept, res.Output)
		}
	}
	res, err = callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "material", "path": ".ssh"})
	if err != nil || !strings.Contains(res.Output, "secret-key-material") {
		t.Errorf("grep aimed at .ssh (asked as HIGH) found nothing: %v\n%s", err, res.Output)
	}
}
