// Package acp owns the Agent Client Protocol (ACP v1) front end: it speaks
// ACP's JSON-RPC on a stream (stdio for `agent-lsp acp`) through
// github.com/coder/acp-go-sdk and adapts it to the session controller
// (package control). What is ACP-specific lives here and nowhere else:
// the wire shapes of session/update, the client-backed Approver
// (session/request_permission), Documents (fs/read_text_file,
// fs/write_text_file) and CommandRunner (terminal/*), and how stored
// conversations are replayed on session/load. Everything a user can ask of
// a conversation (modes, models, slash commands, persistence) is the
// controller's; this package only translates.
package acp
