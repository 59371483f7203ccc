package tools

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Values that are credentials whatever variable, file or output holds
// them: a URL with a password in its userinfo, the token formats of the
// common services, JWTs and PEM private key blocks. They are redacted
// wherever the vault's values are (logs, session files, recordings, tool
// results), and a variable holding one is a secret (IsSecretEnv).
//
// A small table, not a rule set: gitleaks' rules (MIT, the best kept) come
// only with its detector module (74 requirements: viper, cobra, zerolog,
// ...) and are ~200 regular expressions gated by keywords, sized for
// scanning repositories, not for every log line. These are the formats
// its rules and the services document whose prefix makes a false match
// unlikely; each needs enough characters after the prefix to be a token.
//
// Each rule starts with a literal, so that the regexp package skips to it
// (one expression of alternatives scans every byte: 300 µs a KiB).
var secretValueRules = []secretValueRule{
	{re: `gh[pousr]_[A-Za-z0-9]{36,}`, word: true},                                       // GitHub tokens
	{re: `github_pat_[A-Za-z0-9_]{22,}`, word: true},                                     // GitHub fine-grained tokens
	{re: `glpat-[A-Za-z0-9_-]{20,}`, word: true},                                         // GitLab personal tokens
	{re: `xox[abposr]-[A-Za-z0-9-]{10,}`, word: true},                                    // Slack tokens
	{re: `sk-(?:[A-Za-z0-9]+-){0,3}[A-Za-z0-9_]{20,}[A-Za-z0-9_-]*`, word: true},         // OpenAI, Anthropic (sk-ant-), DeepSeek keys
	{re: `sk_live_[A-Za-z0-9]{20,}`, word: true},                                         // Stripe secret keys
	{re: `rk_live_[A-Za-z0-9]{20,}`, word: true},                                         // Stripe restricted keys
	{re: `AKIA[0-9A-Z]{16}\b`, word: true},                                               // AWS access key ids
	{re: `ASIA[0-9A-Z]{16}\b`, word: true},                                               // AWS temporary key ids
	{re: `AIza[0-9A-Za-z_-]{35}`, word: true},                                            // Google API keys
	{re: `npm_[A-Za-z0-9]{36}\b`, word: true},                                            // npm tokens
	{re: `hf_[A-Za-z0-9]{30,}`, word: true},                                              // Hugging Face tokens
	{re: `eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`, word: true}, // JWTs
	// A PEM private key: the whole block; without its end line (a
	// window, a grep line), the header and the base64 that follows.
	{re: `-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:` +
		`(?:[A-Za-z0-9+/=:,.\s-]|\\[nrt])*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|` +
		`(?:[A-Za-z0-9+/=\s]|\\[nrt])*)`},
	// A URL's userinfo password (postgres://user:password@host): only the
	// password is replaced.
	{re: `://[^\s/@:"'\\]*:[^\s/@"'\\]+@`, password: true},
}

// secretValueRule is one credential format.
type secretValueRule struct {
	re string
	// word: the match must not continue a word (task-… is no sk-… key).
	word bool
	// password: the match is "://user:password@"; only the password is
	// the secret.
	password bool
}

// compiledSecretRules are the rules' expressions, compiled at the first
// redaction, not at every start of the binary: their counted repetitions
// ({36,}) compile to that many copies of a class, and a sandboxed
// command's launcher, this same binary, never redacts.
var compiledSecretRules = sync.OnceValue(func() []*regexp.Regexp {
	res := make([]*regexp.Regexp, len(secretValueRules))
	for i, r := range secretValueRules {
		res[i] = regexp.MustCompile(r.re)
	}
	return res
})

// secretSpans returns the byte ranges of s that are credentials, sorted
// and not overlapping.
func secretSpans(s string) [][2]int {
	var spans [][2]int
	for i, re := range compiledSecretRules() {
		r := secretValueRules[i]
		for _, m := range re.FindAllStringIndex(s, -1) {
			start, end := m[0], m[1]
			if r.word && start > 0 && isWordByte(s[start-1]) {
				continue
			}
			if r.password {
				start += 3 + strings.IndexByte(s[start+3:end], ':') + 1
				end--
			}
			spans = append(spans, [2]int{start, end})
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// IsSecretValue reports whether s holds a credential by its shape: a URL
// with a password, a known token format, a JWT, a PEM private key.
func IsSecretValue(s string) bool { return len(secretSpans(s)) > 0 }

// containsSecretValue is IsSecretValue for bytes, without copying them (a
// checkpoint's text, a session batch).
// It runs the rules as secret_scan.go does, finding what their
// FindAllIndex would.
func containsSecretValue(b []byte) bool {
	for _, g := range compiledSecretScans() {
		if g.found(b) {
			return true
		}
	}
	return false
}

// redactSecretValues replaces each credential-shaped value in s by
// Redacted (a URL keeps its scheme, user and host: only the password goes).
func redactSecretValues(s string) string {
	spans := secretSpans(s)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(Redacted)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
