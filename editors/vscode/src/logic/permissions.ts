// "agent-lsp: Permission Rules…": what the quick pick shows of
// agent/permissions, and what a pick sends back. No vscode here, so the
// unit tests run it.

import type { PermissionsParams, PermissionsResult } from '../protocol';

/** One line of the quick pick: a rule to remove, or the workspace's rules file to trust. */
export interface PermissionItem {
  label: string;
  description: string;
  detail?: string;
  /** What picking it sends to agent/permissions. */
  params: PermissionsParams;
}

/** permissionItems lists each rule (picking removes it), then the untrusted workspace file (picking trusts it as shown). */
export function permissionItems(r: PermissionsResult): PermissionItem[] {
  const items: PermissionItem[] = r.rules.map((rule) => ({
    label: `${rule.decision === 'deny' ? 'Deny' : 'Allow'} ${rule.pattern ? `${rule.tool}: ${rule.pattern}` : rule.tool}`,
    description: `${rule.source}'s rules file · pick to remove`,
    params: { remove: rule.id },
  }));
  for (const f of r.files) {
    if (f.source === 'workspace' && f.exists && !f.trusted && f.hash) {
      items.push({
        label: "Trust the workspace's rules file",
        description: 'its allow rules apply (never to HIGH risk) until it changes',
        detail: f.path,
        params: { trust: f.hash },
      });
    }
  }
  return items;
}

/** fileProblems are the files' errors, one line each, for a warning. */
export function fileProblems(r: PermissionsResult): string[] {
  return r.files.flatMap((f) => f.errors);
}
