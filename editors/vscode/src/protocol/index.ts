// The agent-lsp editor protocol (docs/protocol.md) as the extension speaks
// it: the wire types, the method names and the requests it sends. It never
// imports vscode, so the protocol test (e2e/) drives the real daemon with
// exactly these requests over a plain vscode-jsonrpc connection.
//
// Its parts, by job: methods (the method names), session (sessions and
// prompts), queue (queued and steer messages), models (slash commands and model presets), updates (agent/update
// and agent/transcript), approvals (the popup, agent/approve, agent/review),
// checkpoints (agent/checkpoints, agent/rewind), client (AgentClient).

export * from './methods';
export * from './session';
export * from './queue';
export * from './models';
export * from './updates';
export * from './approvals';
export * from './checkpoints';
export * from './client';
export * from './mcp';
export * from './permissions';
export * from './wire';
export * from './spend';
