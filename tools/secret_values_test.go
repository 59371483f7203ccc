package tools

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/fixturetest"
)

// secretOf is what must not appear of a credential variable.
func secretOf(name, value, secret string) string {
	if secret != "" {
		return secret
	}
	return value
}

func TestCredentialVariablesAreScrubbedHiddenAndRedacted(t *testing.T) {
	var environ []string
	for _, c := range fixturetest.CredentialVariables() {
		environ = append(environ, c.Name+"="+c.Value)
		t.Setenv(c.Name, c.Value)
	}
	environ = append(environ, "PATH=/bin", "PWD=/work", "OLDPWD=/", "SSH_AUTH_SOCK=/run/agent.sock",
		"HTTP_PROXY=http://proxy:3128", "GIT_URL=https://git@example.com/r.git")
	if got, want := scrubEnv(environ), environ[len(fixturetest.CredentialVariables()):]; !slices.Equal(got, want) {
		t.Errorf("scrubEnv kept %q, want %q", got, want)
	}
	if err := HideSecretLookingEnv(); err != nil {
		t.Logf("hide: %v (the start-up block is not ours in a test)", err)
	}
	for _, c := range fixturetest.CredentialVariables() {
		if _, ok := os.LookupEnv(c.Name); ok {
			t.Errorf("%s is still in the process environment", c.Name)
		}
		if Getenv(c.Name) != c.Value {
			t.Errorf("%s: the vault lost its value", c.Name)
		}
		text := "line: " + c.Value + " end"
		js, _ := json.Marshal(map[string]string{"output": text})
		for where, out := range map[string]string{"text": RedactSecrets(text), "JSON": string(RedactSecretBytes(js))} {
			if strings.Contains(out, secretOf(c.Name, c.Value, c.Secret)) || !strings.Contains(out, Redacted) {
				t.Errorf("%s in %s: redacted to %q", c.Name, where, out)
			}
		}
	}
}

// Values shaped like credentials are redacted wherever they come from (a
// file the model reads, a command's output), not only the vault's.
func TestRedactSecretValues(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"url postgres://app:hunter2-long@db:5432/x ok", "url postgres://app:[REDACTED]@db:5432/x ok"},
		{"token ghp_9876543210abcdefghijABCDEFGHIJ987654 ok", "token [REDACTED] ok"},
		{"gho_9876543210abcdefghijABCDEFGHIJ987654", "[REDACTED]"},
		{"pat github_pat_11ABCDEFG9876543210_abcdefghijklmnopqrstuvwxyz", "pat [REDACTED]"},
		{"xoxb-123456789012-abcdefABCDEF", "[REDACTED]"},
		{"OPENAI=sk-proj-Abc123def456ghi789jkl012mno345", "OPENAI=[REDACTED]"},
		{"k=sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa-bbbb_ccccAA;", "k=[REDACTED];"},
		{"id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED]."},
		{"glpat-abcdefghij9876543210", "[REDACTED]"},
		{"npm_abcdefghijABCDEFGHIJ9876543210abcdef", "[REDACTED]"},
		{"AIzaSyA-abcdefghijklmnopqrstuvwxyz98765", "[REDACTED]"},
		{"hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "[REDACTED]"},
		{"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
			"Bearer [REDACTED]"},
		{"a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA==\n-----END RSA PRIVATE KEY-----\nb", "a\n[REDACTED]\nb"},
		{`{"t":"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n"}`, `{"t":"[REDACTED]\n"}`},
		{"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg", "[REDACTED]"},
		// Kept: no password, a certificate, words that merely start alike.
		{"https://git@example.com/r.git http://proxy:3128/x", ""},
		{"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", ""},
		{"task-runner sk-learn-compatible-estimator-wrapper disk-usage-report-generator", ""},
		{"ghp_short AKIA-not-a-key eyJ.eyJ.x", ""},
	} {
		want := c.want
		if want == "" {
			want = c.in
		}
		if got := RedactSecrets(c.in); got != want {
			t.Errorf("RedactSecrets(%q) = %q, want %q", c.in, got, want)
		}
		if IsSecretValue(c.in) != (c.want != "") {
			t.Errorf("IsSecretValue(%q) = %v", c.in, !(c.want != ""))
		}
	}
	js, _ := json.Marshal(map[string]string{"u": "mysql://root:pw-9876543210@h/db", "k": "sk-abcdefghijklmnopqrstuvwxyz012345"})
	got := RedactSecretBytes(js)
	if !json.Valid(got) || strings.Contains(string(got), "pw-9876543210") || strings.Contains(string(got), "sk-abc") {
		t.Errorf("RedactSecretBytes(%s) = %s", js, got)
	}
}

// A tool's output passes the value rules too: a file in the workspace
// holding a token reaches neither the model nor the session.
func TestExecuteRedactsCredentialShapedOutput(t *testing.T) {
	ex := &execution{}
	ex.outcomes = make([]Outcome, 1)
	ex.finish(0, Outcome{Output: "DATABASE_URL=postgres://u:output-canary-42@db/x\n"}, 1000)
	if got := ex.outcomes[0].Output; got != "DATABASE_URL=postgres://u:[REDACTED]@db/x\n" {
		t.Errorf("output = %q", got)
	}
}
