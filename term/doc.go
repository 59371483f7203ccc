// Package term owns the terminal chat (`agent-lsp chat`), the third front
// end beside lsp and acp: it reads lines, shows a prompt's events and the
// controller's updates (the printer, with markdown rendered on a
// terminal), asks for approvals and for trust in a workspace's MCP servers
// on the terminal, and lists stored sessions. What a session does —
// prompts, slash commands (/mode, /model, /rewind, /compact, /clear),
// models, modes, which stored session --continue takes — is the
// controller's (package control): the terminal only presents it. The
// flags are cmd/agent-lsp's, handed over as Options; the session's world
// (model connections, tools, sandbox, store) comes from agent/world, as
// the daemon's and ACP's do (world.go).
package term
