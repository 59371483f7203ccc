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
