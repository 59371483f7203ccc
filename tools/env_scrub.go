package tools

import "strings"

// Secrets must not reach the commands the model runs: a command's output
// goes back to the model (and from there anywhere), and a prompt-injected
// command could send it out. So run_bash's environment drops every variable
// whose name says it holds a credential. The rule is by name, upper-cased:
//
//   - a name that is, or ends in "_" followed by, one of secretNameSuffixes:
//     OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN, DB_PASSWORD,
//     GOOGLE_APPLICATION_CREDENTIALS, NPM_CONFIG__AUTH, GH_PAT, TOKEN;
//   - a name containing SECRET or PASSWORD anywhere (CLIENT_SECRET_ID).
//
// Kept: SSH_AUTH_SOCK (a socket path that git over ssh needs; AUTH is not
// its suffix), PATH-like and URL variables. A secret inside a value under
// an innocent name (a DATABASE_URL with a password in it) is not detected.
var secretNameSuffixes = []string{
	"KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS",
	"CREDENTIAL", "CREDENTIALS", "AUTH", "PAT",
}

// secretNameWords mark a secret wherever they appear in the name.
var secretNameWords = []string{"SECRET", "PASSWORD"}

// IsSecretEnvName reports whether an environment variable name looks like
// it holds a credential. Every child process the agent starts (commands,
// MCP servers) goes without such variables.
func IsSecretEnvName(name string) bool {
	up := strings.ToUpper(name)
	for _, s := range secretNameSuffixes {
		if up == s || strings.HasSuffix(up, "_"+s) {
			return true
		}
	}
	for _, w := range secretNameWords {
		if strings.Contains(up, w) {
			return true
		}
	}
	return false
}

// scrubEnv returns environ ("NAME=value" entries) without the secrets:
// secret-looking names and the names HideEnv hid.
func scrubEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if IsChildSafeEnvName(name) {
			out = append(out, kv)
		}
	}
	return out
}
