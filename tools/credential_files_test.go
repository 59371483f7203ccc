package tools

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/permission"
)

// credentialFiles are ten credential files the rules of old let the file
// tools read unasked: tool stores under home (the workspace is home) and
// files that hold a credential wherever they are.
var credentialFiles = []string{
	".m2/settings.xml", ".gradle/gradle.properties", ".config/git/credentials",
	".config/google-chrome/Default/Login Data", ".mozilla/firefox/p.default/logins.json",
	".config/Code/User/globalStorage/state.vscdb", "proj/.env", "proj/deploy/server.key",
	"proj/backup/id_ed25519", "proj/certs/client.p12",
}

// Each is HIGH to read_file and to grep aimed at it, and a grep of the
// workspace passes it by; ordinary files next to them stay LOW.
func TestCredentialFilesAreHighToRead(t *testing.T) {
	files := map[string]string{"proj/.env.example": "DB_PASSWORD=changeme template-material\n",
		"proj/main.go": "package main // ordinary-material\n"}
	for i, p := range credentialFiles {
		files[p] = fmt.Sprintf("password = file-canary-%02d\n", i)
	}
	env, root := newSearchEnv(t, files)
	t.Setenv("HOME", root)
	for i, p := range credentialFiles {
		for _, c := range []struct {
			tool Tool
			args map[string]any
		}{
			{NewReadFile(), map[string]any{"path": p}},
			{NewGrep(), map[string]any{"pattern": "password", "path": p}},
		} {
			a, err := c.tool.Describe(t.Context(), argsJSON(t, c.args), env)
			if err != nil {
				t.Fatal(err)
			}
			if a.Risk != permission.High || len(a.Reasons) == 0 || !strings.Contains(a.Reasons[0], "credential") {
				t.Errorf("%s %s (%d): risk %s %q, want HIGH", c.tool.Name(), p, i, a.Risk, a.Reasons)
			}
		}
	}
	for _, p := range []string{"proj/.env.example", "proj/main.go"} {
		a, err := NewReadFile().Describe(t.Context(), argsJSON(t, map[string]any{"path": p}), env)
		if err != nil || a.Risk != permission.Low {
			t.Errorf("read_file %s: risk %s %v, want LOW", p, a.Risk, err)
		}
	}
	res, err := callTool(t, context.Background(), NewGrep(), env, map[string]any{"pattern": "canary|material"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Output, "file-canary") {
		t.Errorf("grep of the workspace read a credential file:\n%s", res.Output)
	}
	if !strings.Contains(res.Output, "template-material") || !strings.Contains(res.Output, "ordinary-material") {
		t.Errorf("grep skipped ordinary files:\n%s", res.Output)
	}
}
