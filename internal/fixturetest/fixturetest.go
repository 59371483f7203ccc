// Package fixturetest holds the tables several packages' tests run over
// (a protected workspace file of each kind, twenty credential variables),
// embedded in the test binary: a test reads them wherever the binary
// runs, as another account, from another directory, or as the demo MCP
// server. Imported by tests only.
package fixturetest

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed protected-files.json
var protectedJSON []byte

//go:embed credential-variables.json
var credentialJSON []byte

// HiddenCharacter is a character that makes what a person reads differ
// from what runs (In holds it), with how every approval text and every
// shown line must write it (Want).
type HiddenCharacter struct{ Name, In, Want string }

// HiddenCharacters are the hidden characters permission.Visible writes
// visibly: the table permission's tests and the terminal approver's run
// over.
func HiddenCharacters() []HiddenCharacter {
	return []HiddenCharacter{
		{"carriage return", "echo safe\rrm -rf ~", `echo safe\rrm -rf ~`},
		{"escape sequence", "ls\x1b[2K\x1b[1Gecho ok", `ls\x1b[2K\x1b[1Gecho ok`},
		{"OSC 52 clipboard write", "echo \x1b]52;c;cm0gLXJmIH4K\a", `echo \x1b]52;c;cm0gLXJmIH4K\a`},
		{"bidi override", "rm -rf ~/\u202Etxt.gpj", `rm -rf ~/<U+202E>txt.gpj`},
		{"bidi isolate", "a\u2066b\u2069", `a<U+2066>b<U+2069>`},
		{"zero-width space", "curl evil\u200B.example", `curl evil<U+200B>.example`},
		{"zero-width joiner", "x\u200Dy", `x<U+200D>y`},
		{"byte order mark", "\uFEFFrm", `<U+FEFF>rm`},
		{"C1 CSI", "a\u009B2Jb", `a<U+009B>2Jb`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"line separator", "a\u2028b", `a<U+2028>b`},
		{"Hangul filler", "a\u3164b", `a<U+3164>b`},
		{"tag characters", "ok\U000E0072\U000E006D", `ok<U+E0072><U+E006D>`},
		{"no-break space", "rm -rf /tmp/x\u00A0/", `rm -rf /tmp/x<U+00A0>/`},
		{"not UTF-8", "a\xffb", `a\xffb`},
	}
}

// ProtectedFiles are a protected workspace file of each kind
// (permission/protected_files.go: .vscode/tasks.json, .envrc,
// .husky/pre-commit, .mcp.json, ...), as workspace-relative paths.
func ProtectedFiles() []string {
	var table struct{ Files []string }
	mustDecode("protected-files.json", protectedJSON, &table)
	return table.Files
}

// CredentialVariable is a credential in the environment: by its name
// (cloud, database and CI variables) or by its value (a URL with a
// password, a known token format under an innocent name). Secret is what
// must not appear: the password alone for a URL; the value when empty.
type CredentialVariable struct{ Name, Value, Secret string }

// CredentialVariables are twenty credentials the name rule of old let
// through to commands, MCP servers, sessions and the model.
func CredentialVariables() []CredentialVariable {
	var rows []CredentialVariable
	mustDecode("credential-variables.json", credentialJSON, &rows)
	return rows
}

// mustDecode decodes an embedded table; a table that does not decode is
// a broken build, not a test failure.
func mustDecode(name string, b []byte, v any) {
	if err := json.Unmarshal(b, v); err != nil {
		panic(fmt.Sprintf("fixturetest: %s: %v", name, err))
	}
}
