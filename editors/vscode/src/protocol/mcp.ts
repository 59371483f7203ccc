// The wire types of the MCP servers' state and trust: agent/mcpStatus,
// agent/mcpTrust, and the MCP prompts agent/tools lists.

import type { CommandArgument } from './models';

/** One MCP prompt (a slash command /mcp__<server>__<name>). */
export interface PromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: CommandArgument[];
}

/** One MCP server's state; for a workspace entry not trusted yet, what it would run. */
export interface McpServerStatus {
  name: string;
  state: string;
  protocolVersion?: string;
  tools: number;
  error?: string;
  source?: string;
  /** user, always, once or untrusted. */
  trust?: string;
  reason?: string;
  target?: string;
  variables?: string[];
  hash?: string;
}

export interface McpStatusResult {
  servers: McpServerStatus[] | null;
  configErrors?: string[];
}

/** agent/mcpTrust's params: the user's decision about a workspace entry. */
export interface McpTrustParams {
  server: string;
  decision: 'allow' | 'always' | 'deny';
  hash?: string;
}
