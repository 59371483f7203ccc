// The wire types of the custom subagents (docs/protocol.md, "Subagents"):
// agent/subagents lists the files, agent/subagentTrust decides about a
// workspace's one, bound to the hash of the content the user saw.

/** One custom subagent file. */
export interface SubagentInfo {
  name: string;
  description: string;
  /** [] : the defaults (read_file, glob, grep). */
  tools: string[];
  model?: string;
  /** Its instructions, as written: what the user trusts. */
  prompt: string;
  path: string;
  source: 'workspace' | 'user';
  hash: string;
  trust: 'user' | 'untrusted' | 'once' | 'always';
  /** Why it is not offered although trusted. */
  problem?: string;
}

export interface SubagentsResult {
  subagents: SubagentInfo[];
}

export interface SubagentTrustParams {
  name: string;
  hash: string;
  trust: 'once' | 'always' | 'deny';
}
