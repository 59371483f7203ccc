// Approvals in VS Code's native popup, with a "Show diff" action that opens
// vscode.diff between the document's current text and the text the edit
// proposes (the popup's diff applied to the current text) before the user
// decides.

import * as vscode from 'vscode';
import { approvalDetail, approvalTitle, proposedText, type Approval } from './logic/approval';

const showDiff = 'Show diff';
export const proposedScheme = 'agent-lsp-proposed';

/** Serves the proposed texts of pending approvals as read-only documents. */
export class ProposedTexts implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** add stores a text under a fresh URI whose path ends like the file's (for its language). */
  add(path: string, text: string): vscode.Uri {
    this.counter += 1;
    const uri = vscode.Uri.from({ scheme: proposedScheme, path: '/' + path.replace(/^\/+/, ''), query: String(this.counter) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }
}

export class ApprovalUi {
  constructor(private readonly texts: ProposedTexts) {}

  /** decide shows the popup and returns the chosen action title (undefined: dismissed, which is Deny). */
  async decide(a: Approval, offered: string[]): Promise<string | undefined> {
    const canDiff = a.diff !== undefined && a.diff.hunks.length > 0 && a.path !== undefined;
    const items = canDiff ? [...offered, showDiff] : offered;
    // The first ask is modal, so the detail (the diff or the command) is
    // shown in full; after "Show diff" the ask is a notification, so the
    // diff editor stays usable while the user reads it.
    let choice = await vscode.window.showWarningMessage(approvalTitle(a), { modal: true, detail: approvalDetail(a) }, ...items);
    const opened: vscode.Uri[] = [];
    try {
      while (choice === showDiff) {
        const uri = await this.openDiff(a);
        if (uri) opened.push(uri);
        choice = await vscode.window.showWarningMessage(approvalTitle(a), ...items);
      }
    } finally {
      for (const uri of opened) this.texts.forget(uri);
    }
    return choice;
  }

  private async openDiff(a: Approval): Promise<vscode.Uri | undefined> {
    const path = a.path as string;
    const current = await currentDocument(path);
    let proposed;
    try {
      proposed = proposedText(current ? current.getText() : '', a);
    } catch (err) {
      void vscode.window.showErrorMessage(`agent-lsp: cannot preview the edit of ${path}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    const right = this.texts.add(path, proposed.text);
    const left = current ? current.uri : this.texts.add(path, '');
    const note = proposed.complete ? '' : ' (partial: the popup shows only the first hunks)';
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path}: current ↔ proposed by agent-lsp${note}`, { preview: true });
    return right;
  }
}

/** currentDocument finds the edited file (relative to a workspace folder); undefined for a new file. */
async function currentDocument(path: string): Promise<vscode.TextDocument | undefined> {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open;
    try {
      await vscode.workspace.fs.stat(uri);
      return await vscode.workspace.openTextDocument(uri);
    } catch {
      // not in this folder
    }
  }
  return undefined;
}
