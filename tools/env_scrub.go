package tools

import "strings"

// Secrets must not reach the commands the model runs: a command's output
// goes back to the model (and from there anywhere), and a prompt-injected
// command could send it out. So run_bash's environment drops every variable
// that holds a credential. The rule is first by name, upper-cased and split
// at "_" into words:
//
//   - the last word is one of secretNameSuffixes: OPENAI_API_KEY, GH_PAT,
//     MYSQL_PWD, NPM_CONFIG__AUTH, CI_JOB_JWT, TOKEN;
//   - a word anywhere is one of secretNameWords: GITHUB_TOKEN_WORK,
//     AWS_SESSION_TOKEN, GOOGLE_APPLICATION_CREDENTIALS (a path to a key
//     file: a child that finds it authenticates as the user, so it goes
//     too), SSH_KEY_PASSPHRASE;
//   - two words in a row are one of secretNamePairs: OPENAI_API_KEY_WORK,
//     AWS_ACCESS_KEY_ID, GPG_PRIVATE_KEY_FILE;
//   - the name contains SECRET, PASSWORD, PASSWD or AUTHTOKEN anywhere
//     (PGPASSWORD, CLIENTSECRET, NPM_CONFIG_//host/:_authToken);
//   - the name is one of secretNamesExact (SSHPASS, DOCKER_AUTH_CONFIG).
//
// Then by value (IsSecretEnv, secret_values.go): a DATABASE_URL with a
// password in it, or a value that is a known token (ghp_…, sk-…, AKIA…).
// Kept: SSH_AUTH_SOCK (a socket path that git over ssh needs), PWD and
// OLDPWD (the shell's directories), GIT_ASKPASS, PATH-like variables.
var secretNameSuffixes = set(
	"KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PWD",
	"CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH", "PAT", "JWT", "COOKIE", "PASSPHRASE",
)

// secretNameWords mark a secret wherever they stand in the name.
var secretNameWords = set("TOKEN", "TOKENS", "SECRET", "SECRETS", "APIKEY", "CREDENTIAL", "CREDENTIALS",
	"CREDS", "PASSPHRASE", "WEBHOOK", "DSN")

// secretNamePairs mark a secret as two words in a row anywhere.
var secretNamePairs = []string{"API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "SECRET_KEY", "ACCOUNT_KEY",
	"CONNECTION_STRING", "AUTH_TOKEN", "AUTH_CONFIG", "SIGNING_KEY"}

// secretNameParts mark a secret anywhere in the name, even inside a word.
var secretNameParts = []string{"SECRET", "PASSWORD", "PASSWD", "AUTHTOKEN"}

// secretNamesExact are whole names that hold a credential and fit no rule.
var secretNamesExact = set("SSHPASS", "MYSQL_PWD", "PGPASSWORD", "PGPASSFILE", "DOCKER_AUTH_CONFIG",
	"NETRC", "VAULT_TOKEN", "CI_JOB_TOKEN", "CI_REGISTRY_PASSWORD", "ACTIONS_RUNTIME_TOKEN",
	"ACTIONS_ID_TOKEN_REQUEST_TOKEN", "SYSTEM_ACCESSTOKEN", "BUILDKITE_AGENT_ACCESS_TOKEN", "CIRCLE_TOKEN")

// IsSecretEnvName reports whether an environment variable name looks like
// it holds a credential. Every child process the agent starts (commands,
// MCP servers) goes without such variables.
func IsSecretEnvName(name string) bool {
	up := strings.ToUpper(name)
	if secretNamesExact[up] {
		return true
	}
	for _, p := range secretNameParts {
		if strings.Contains(up, p) {
			return true
		}
	}
	words := strings.Split(up, "_")
	if secretNameSuffixes[words[len(words)-1]] && (len(words) > 1 || up != "PWD") {
		return true
	}
	for i, w := range words {
		if secretNameWords[w] {
			return true
		}
		if i > 0 {
			for _, p := range secretNamePairs {
				if words[i-1]+"_"+w == p {
					return true
				}
			}
		}
	}
	return false
}

// IsSecretEnv reports whether a variable holds a credential by its name
// or by its value (a URL with a password, a known token's shape).
func IsSecretEnv(name, value string) bool {
	return IsSecretEnvName(name) || IsSecretValue(value)
}

// scrubEnv returns environ ("NAME=value" entries) without the secrets:
// secret names, secret-looking values and the names HideEnv hid.
func scrubEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if IsChildSafeEnv(name, value) {
			out = append(out, kv)
		}
	}
	return out
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
