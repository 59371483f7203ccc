// What the chat says of VS Code's workspace trust: in restricted mode (an
// untrusted folder) the daemon is a read-only agent, refusing edits,
// commands and the folder's .mcp.json (docs/protocol.md, workspaceTrust).

/** The line at the top of the chat in restricted mode: what holds, and how to leave it. */
export const restrictedBanner =
  'Restricted mode: this folder is not trusted, so the agent only reads and searches (no edits, no commands, no MCP servers from the folder). ' +
  'To let it work, trust the folder: "Workspaces: Manage Workspace Trust".';

/** The line when the user trusted the folder: the daemon restarts in full mode. */
export const trustedNotice = 'This folder is trusted now: the agent restarts with edits and commands (each asked as usual).';
