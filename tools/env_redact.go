package tools

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Redacted replaces a hidden value in text that leaves the process.
const Redacted = "[REDACTED]"

// MinRedactedLen is the shortest hidden value that is redacted. A
// credential is longer; a shorter value ("1", "true", "main", a user name)
// hidden because of its variable's name would otherwise be rewritten
// wherever it occurs, and in a JSON session file or log line that breaks
// the structure itself (every "true", every digit).
const MinRedactedLen = 8

// redactor replaces every hidden value, as written and as JSON escapes it
// (with and without HTML escaping: encoding/json, zap), by Redacted.
type redactor struct {
	needles [][]byte // longest first, so a value containing another wins
	texts   []string // the needles as strings
	r       *strings.Replacer
}

func newRedactor(values map[string]string) *redactor {
	seen := map[string]bool{}
	var needles []string
	add := func(s string) {
		if len(s) >= MinRedactedLen && !seen[s] {
			seen[s] = true
			needles = append(needles, s)
		}
	}
	for _, v := range values {
		add(v)
		add(jsonEscaped(v, true))
		add(jsonEscaped(v, false))
	}
	slices.SortFunc(needles, func(a, b string) int { return len(b) - len(a) })
	rd := &redactor{}
	pairs := make([]string, 0, 2*len(needles))
	for _, n := range needles {
		rd.needles = append(rd.needles, []byte(n))
		rd.texts = append(rd.texts, n)
		pairs = append(pairs, n, Redacted)
	}
	rd.r = strings.NewReplacer(pairs...)
	return rd
}

// jsonEscaped is s as it appears inside a JSON string.
func jsonEscaped(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSpace(b.Bytes())
	return string(out[1 : len(out)-1])
}

func (rd *redactor) contains(b []byte) bool {
	for _, n := range rd.needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// currentRedactor is the redactor of the vault's values now.
func currentRedactor() *redactor {
	vault.Lock()
	defer vault.Unlock()
	if vault.redact == nil {
		vault.redact = newRedactor(vault.values)
	}
	return vault.redact
}

// RedactSecrets replaces every hidden value (HiddenEnvValues, at least
// MinRedactedLen bytes long) in s by Redacted, also in its JSON-escaped
// forms, and every value shaped like a credential (secret_values.go: a
// URL's password, known token formats, JWTs, PEM private keys). Logs,
// session files, recordings and tool results pass through it.
func RedactSecrets(s string) string {
	rd := currentRedactor()
	// Checked first: the replacer copies s even when nothing matches, and
	// s may be an answer of megabytes.
	if slices.ContainsFunc(rd.texts, func(n string) bool { return strings.Contains(s, n) }) {
		s = rd.r.Replace(s)
	}
	return redactSecretValues(s)
}

// RedactSecretBytes is RedactSecrets for bytes; b itself is returned when
// it holds no secret.
func RedactSecretBytes(b []byte) []byte {
	rd := currentRedactor()
	if !rd.contains(b) && !containsSecretValue(b) {
		return b
	}
	return []byte(RedactSecrets(string(b)))
}
