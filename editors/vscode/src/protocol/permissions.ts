// agent/permissions: the saved permission rules (docs/protocol.md,
// "Permission rules"): list them, remove one, trust the workspace's file.

/** No field lists; remove deletes a rule by id; trust approves the workspace's rules file whose content has that hash. */
export interface PermissionsParams {
  remove?: string;
  trust?: string;
}

/** One saved rule: "TOOL: PATTERN" of an allow or deny list, from the user's or the workspace's file. */
export interface PermissionRule {
  id: string;
  tool: string;
  /** Empty: every call of the tool. */
  pattern: string;
  decision: 'allow' | 'deny';
  source: 'user' | 'workspace';
}

/** A rules file: the workspace's allow rules apply only while trusted (for this content). */
export interface RulesFile {
  source: 'user' | 'workspace';
  path: string;
  exists: boolean;
  trusted: boolean;
  hash?: string;
  errors: string[];
}

export interface PermissionsResult {
  rules: PermissionRule[];
  files: RulesFile[];
}
