// Package e2e tests the Neovim plugin (editors/nvim) end to end: headless
// Neovim loads the plugin, drives its public commands from a Lua scenario
// (e2e/nvim/*.lua), and the plugin talks to the real agent-lsp daemon,
// which talks to the strict fake model of provider/providertest.
//
// Run: go test ./editors/nvim/e2e/ (Neovim 0.7.2 or later on $PATH;
// scripts/install-test-peers installs it; without it the tests skip, and
// fail under CI). TestMain builds cmd/agent-lsp; AGENT_LSP_E2E_BINARY=path
// tests that binary instead.
package e2e
