package tools

import (
	"slices"
	"testing"
)

func TestIsSecretEnvName(t *testing.T) {
	secret := []string{
		"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "DEEPSEEK_API_KEY", "FOO_API_KEY", "foo_api_key", "API_KEY",
		"AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY", "AWS_SESSION_TOKEN", "GITHUB_TOKEN", "GH_TOKEN", "TOKEN",
		"NPM_TOKEN", "CLIENT_SECRET", "CLIENT_SECRET_ID", "DB_PASSWORD", "PGPASSWORD", "MYSQL_PWD_PASSWD",
		"SMTP_PASS", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET", "CI_JOB_TOKEN", "SSHPASS", "MYSQL_PWD", "NPM_CONFIG__AUTH", "GH_PAT", "STRIPE_KEY", "SERVICE_APIKEY",
	}
	kept := []string{
		"PATH", "HOME", "GOPATH", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM", "KEYBOARD", "LANG", "TERM",
		"GOPROXY", "HTTP_PROXY", "CLASSPATH", "EDITOR", "XDG_RUNTIME_DIR", "MONKEY", "PASSENGER_HOME",
		"PWD", "OLDPWD", "GIT_ASKPASS", "SSH_ASKPASS", "KUBECONFIG", "AWS_REGION", "AWS_PROFILE", "DATABASE_URL",
	}
	for _, name := range secret {
		if !IsSecretEnvName(name) {
			t.Errorf("%s: kept, want scrubbed", name)
		}
	}
	for _, name := range kept {
		if IsSecretEnvName(name) {
			t.Errorf("%s: scrubbed, want kept", name)
		}
	}
}

func TestScrubEnv(t *testing.T) {
	in := []string{"PATH=/bin", "OPENAI_API_KEY=sk-1", "EMPTY=", "GITHUB_TOKEN=x=y", "NOEQUALS", "HOME=/root"}
	got := scrubEnv(in)
	want := []string{"PATH=/bin", "EMPTY=", "NOEQUALS", "HOME=/root"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
