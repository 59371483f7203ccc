// Package lsp is the editor daemon: an LSP server on stdio that runs the
// agent for an editor. Prompts arrive as agent/* requests, the answer
// streams back as agent/update notifications and $/progress, approvals are
// agent/approve and agent/review requests (or window/showMessageRequest
// popups for clients that declare neither), and edits go through
// workspace/applyEdit so they land in the user's buffers.
//
// The agent loop knows nothing of this: the package only implements the
// agent's seams (agent.Listener, permission.Approver, tools.Documents) over
// the connection. What the user can ask of sessions (new, resume, models,
// modes, slash commands, mentions, compaction, rewind) is package
// control's, shared with the other front ends; this package is its LSP
// adapter: wire formats, popups, progress, update numbering.
// docs/protocol.md is the contract.
//
// One file per feature, after gopls: serve (lifecycle), stream (framing),
// server (dispatch), route (the method table and the typed routes every
// handler is served through: params decoded, and a session looked up,
// once), initialize, text sync and overlays, documents (applyEdit),
// textedits (minimal UTF-16 edits), approver, updates (the one agent/update
// encoding: a header embedded in every payload), progress, sessions (the
// views of control's sessions), persist (the store, control's errors as
// LSP errors), prompt, compact, commands.
//
// Wire types come from go.lsp.dev/protocol v0.12.0 wherever its type
// encodes what the LSP specification says. A local type exists only where
// the library's is wrong on the wire: it lives in protocol_fixes.go, its
// comment names the library's fault, and protocol_fixes_test.go shows the
// fault on the library's type, so that an upgrade which fixes it is
// noticed and the local type deleted. (The reason: one source of LSP names
// and shapes, and every deviation from it visible in one place with its
// cause.) Types the pinned library lacks, LSP 3.18's inline completion,
// are declared beside their feature.
package lsp
