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
// dispatch, initialize, text sync and overlays, documents (applyEdit),
// textedits (minimal UTF-16 edits), approver, updates, progress, sessions
// (the views of control's sessions), persist (the store, control's errors
// as LSP errors), prompt, compact, commands.
package lsp
