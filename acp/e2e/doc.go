// Package e2e tests `agent-lsp acp` through a real ACP client written by
// others: node/session.mjs on @agentclientprotocol/sdk (the official
// TypeScript library, pinned in node/package.json), against the strict fake
// model server of provider/providertest. The script checks every message
// the agent sends against the protocol's schema (the SDK's own generated
// schemas) and fails on any violation.
//
// TestMain builds the binary once per run (or takes AGENT_LSP_E2E_BINARY).
// The SDK is installed by scripts/install-test-peers; a test whose peer is
// missing skips, except under CI (CI=true), where it fails. The helpers are
// this package's own rather than lsp/lsptest's: the acp tree imports
// nothing of lsp.
package e2e
