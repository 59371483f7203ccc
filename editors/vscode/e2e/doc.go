// Package e2e is the VS Code extension's protocol test: the extension's own
// protocol module (src/protocol/ and src/logic, compiled to out/) plays
// the extension's request sequence over vscode-jsonrpc against the real
// agent-lsp binary and the strict fake model of provider/providertest.
//
// scripts/build-vscode installs the extension's npm packages and compiles
// it; without them the test skips, except under CI (CI=true), where it fails.
package e2e
