package main

import (
	"maps"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// credentialVariables are twenty credentials the name rule of old let
// through to commands, MCP servers, sessions and the model: by name
// (cloud, database and CI variables) or by value (a URL with a password,
// a known token format under an innocent name). secret is what must not
// appear (the password alone for a URL; the value when empty).
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

// The twenty credentials, in the chat's environment with the canaries of
// old, reach no command's environment, no request to the model, no
// session file, recording, raw dump or log: as root and as an ordinary
// user, with the sandbox off (the scrub and the vault alone protect them).
func TestChatCredentialVariablesReachNoChildFileOrLog(t *testing.T) {
	accounts := []struct {
		name   string
		prefix []string
	}{{name: "the test's user"}}
	if setpriv, err := exec.LookPath("setpriv"); err == nil && os.Geteuid() == 0 {
		accounts = append(accounts, struct {
			name   string
			prefix []string
		}{"nobody", []string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"}})
	}
	for _, acct := range accounts {
		t.Run(acct.name, func(t *testing.T) {
			env, check := canaries(), canaries()
			for _, c := range credentialVariables {
				env[c.name] = c.value
				check[c.name] = c.value
				if c.secret != "" {
					check[c.name] = c.secret
				}
			}
			r := runSecretChat(t, env, []string{"--sandbox", "off"}, acct.prefix...)
			seen := checkNothingLeaked(t, maps.Clone(check), r)
			child, _, ok := strings.Cut(seen, "==parent==")
			if !ok || !strings.Contains(child, "PATH=") {
				t.Fatalf("the command did not run as scripted:\n%s", seen)
			}
			for _, c := range credentialVariables {
				if strings.Contains(child, "\n"+c.name+"=") || strings.HasPrefix(child, c.name+"=") {
					t.Errorf("the child's environment has %s", c.name)
				}
			}
		})
	}
}
