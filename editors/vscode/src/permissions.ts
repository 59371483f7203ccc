// "agent-lsp: Permission Rules…": the saved "Always allow" and deny rules
// (agent/permissions) in a quick pick; picking a rule removes it, picking
// the workspace's rules file trusts it as it is now.

import * as vscode from 'vscode';
import type { Daemon } from './daemon';
import { fileProblems, permissionItems, type PermissionItem } from './logic/permissions';

export async function managePermissions(d: Daemon): Promise<void> {
  const { agent } = await d.agent();
  const listing = await agent.permissions();
  for (const p of fileProblems(listing)) void vscode.window.showWarningMessage(`agent-lsp: ${p}`);
  const items = permissionItems(listing);
  if (items.length === 0) {
    void vscode.window.showInformationMessage('agent-lsp: no saved permission rules ("Always allow" in an approval saves one).');
    return;
  }
  const pick = await vscode.window.showQuickPick<PermissionItem & vscode.QuickPickItem>(items, {
    title: 'agent-lsp: permission rules',
    placeHolder: 'Pick a rule to remove it',
    matchOnDescription: true,
  });
  if (!pick) return;
  const after = await agent.permissions(pick.params);
  const what = pick.params.remove ? `Removed "${pick.label}".` : "The workspace's rules file is trusted.";
  void vscode.window.showInformationMessage(`agent-lsp: ${what} ${after.rules.length} rules remain.`);
}
