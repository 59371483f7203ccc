// Package e2e tests the agent-lsp binary through real LSP clients written by
// others: Node's vscode-jsonrpc (node/*.js) and headless Neovim (nvim/*.lua,
// Debian's 0.7.2), against the strict fake model server of
// provider/providertest, plus a client that vanishes mid-prompt.
//
// TestMain builds the binary once per run. The peers are installed by
// scripts/install-test-peers; a test whose peer is missing skips, except
// under CI (CI=true), where a missing peer fails.
package e2e
