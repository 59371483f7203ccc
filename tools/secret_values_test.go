package tools

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// credentialVariables are twenty variables that hold credentials the
// name rule of old let through, by their name or by their value; each is
// scrubbed from children, hidden in the vault, and redacted.
var credentialVariables = []struct{ name, value, secret string }{
	{"AWS_ACCESS_KEY_ID", "canary-aws-key-id-5eb1c0de", ""},
	{"ALIBABA_CLOUD_ACCESS_KEY_ID", "canary-alibaba-key-id-5eb1c0de", ""},
	{"OPENAI_API_KEY_WORK", "canary-openai-work-5eb1c0de", ""},
	{"GITHUB_TOKEN_PERSONAL", "canary-github-personal-5eb1c0de", ""},
	{"MYSQL_PWD", "canary-mysql-pwd-5eb1c0de", ""},
	{"SSHPASS", "canary-sshpass-5eb1c0de", ""},
	{"SSH_KEY_PASSPHRASE", "canary-passphrase-5eb1c0de", ""},
	{"CI_JOB_JWT", "canary-ci-job-jwt-5eb1c0de", ""},
	{"DOCKER_AUTH_CONFIG", `{"auths":{"r.example":{"auth":"canary-docker-auth-5eb1c0de"}}}`, "canary-docker-auth-5eb1c0de"},
	{"GOOGLE_CREDENTIALS_JSON", `{"type":"service_account","key":"canary-gcp-json-5eb1c0de"}`, "canary-gcp-json-5eb1c0de"},
	{"AZURE_STORAGE_CONNECTION_STRING", "AccountName=a;AccountKey=canary-azure-conn-5eb1c0de", "canary-azure-conn-5eb1c0de"},
	{"SENTRY_DSN", "https://canary-sentry-5eb1c0de@o1.ingest.sentry.io/1", "canary-sentry-5eb1c0de"},
	{"SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T0/B0/canary-webhook-5eb1c0de", "canary-webhook-5eb1c0de"},
	{"DATABASE_URL", "postgres://app:canary-dburl-5eb1c0de@db.internal:5432/app", "canary-dburl-5eb1c0de"},
	{"REDIS_URL", "redis://:canary-redis-5eb1c0de@cache:6379/0", "canary-redis-5eb1c0de"},
	{"MONGODB_URI", "mongodb+srv://svc:canary-mongo-5eb1c0de@cluster0.example.net/db", "canary-mongo-5eb1c0de"},
	{"ZQX_DEPLOY_SETTING", "ghp_5eb1c0de5eb1c0de5eb1c0de5eb1c0de5eb1", ""},
	{"ZQX_LLM_SETTING", "sk-ant-api03-5eb1c0de5eb1c0de5eb1c0de5eb1c0de-5eb1c0deAA", ""},
	{"ZQX_CLOUD_SETTING", "AKIA5EB1C0DE5EB1C0DE", ""},
	{"ZQX_SESSION_SETTING", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1ZWIxYzBkZSJ9.c2lnbmF0dXJlLTVlYjFjMGRl", ""},
}

// secretOf is what must not appear of a credential variable.
func secretOf(name, value, secret string) string {
	if secret != "" {
		return secret
	}
	return value
}

func TestCredentialVariablesAreScrubbedHiddenAndRedacted(t *testing.T) {
	var environ []string
	for _, c := range credentialVariables {
		environ = append(environ, c.name+"="+c.value)
		t.Setenv(c.name, c.value)
	}
	environ = append(environ, "PATH=/bin", "PWD=/work", "OLDPWD=/", "SSH_AUTH_SOCK=/run/agent.sock",
		"HTTP_PROXY=http://proxy:3128", "GIT_URL=https://git@example.com/r.git")
	if got, want := scrubEnv(environ), environ[len(credentialVariables):]; !slices.Equal(got, want) {
		t.Errorf("scrubEnv kept %q, want %q", got, want)
	}
	if err := HideSecretLookingEnv(); err != nil {
		t.Logf("hide: %v (the start-up block is not ours in a test)", err)
	}
	for _, c := range credentialVariables {
		if _, ok := os.LookupEnv(c.name); ok {
			t.Errorf("%s is still in the process environment", c.name)
		}
		if Getenv(c.name) != c.value {
			t.Errorf("%s: the vault lost its value", c.name)
		}
		text := "line: " + c.value + " end"
		js, _ := json.Marshal(map[string]string{"output": text})
		for where, out := range map[string]string{"text": RedactSecrets(text), "JSON": string(RedactSecretBytes(js))} {
			if strings.Contains(out, secretOf(c.name, c.value, c.secret)) || !strings.Contains(out, Redacted) {
				t.Errorf("%s in %s: redacted to %q", c.name, where, out)
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
