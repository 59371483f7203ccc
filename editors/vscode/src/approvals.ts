// Approvals (agent/approve) in VS Code's native dialog: the title says what
// runs in plain words ("Run command", "Edit file a.go"), the risk and why,
// the detail shows the command once or the edit's hunks, the buttons are
// the offered options in an order where Enter is safe (approvalButtons:
// Deny is the focused default for HIGH); an edit adds "Show diff", which
// opens vscode.diff between the document and the text with the request's
// hunks applied. Any other
// window/showMessageRequest (the workspace trust question) is shown as it
// is, with its buttons.

import * as vscode from 'vscode';
import type { ApproveParams, ShowMessageRequestParams } from './protocol';
import { approvalButtons, approvalDetail, approvalTitle, proposedText, showDiffTitle } from './logic/approval';
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
  /** onStop cancels the running prompt: HIGH's "Deny and stop the agent" (Escape). */
  constructor(private readonly texts: ProposedTexts, private readonly onStop: () => void = () => {}) {}

  /** decide shows the dialog and returns the chosen option's id (undefined: dismissed, which is Deny). */
  async decide(p: ApproveParams): Promise<string | undefined> {
    const items: Array<vscode.MessageItem & { optionId?: string; stops?: boolean }> = approvalButtons(p);
    // The first ask is modal, so the detail (the command or the diff) is
    // shown in full; after "Show diff" the ask is a notification, so the
    // diff editor stays usable while the user reads it.
    let choice = await vscode.window.showWarningMessage(approvalTitle(p), { modal: true, detail: approvalDetail(p) }, ...items);
    const opened: vscode.Uri[] = [];
    try {
      while (choice?.title === showDiffTitle) {
        const uri = await this.openDiff(p);
        if (uri) opened.push(uri);
        choice = await vscode.window.showWarningMessage(approvalTitle(p), ...items);
      }
    } finally {
      for (const uri of opened) this.texts.forget(uri);
    }
    // The deny is answered first, so the tool's card says denied; the
    // cancel then ends the prompt.
    if (choice?.stops) setImmediate(this.onStop);
    return choice?.optionId;
  }

  private async openDiff(p: ApproveParams): Promise<vscode.Uri | undefined> {
    const path = p.path as string;
    const current = await openIfExists(vscode.Uri.parse(p.uri as string));
    let proposed;
    try {
      proposed = proposedText(current ? current.getText() : '', p);
    } catch (err) {
      void vscode.window.showErrorMessage(`agent-lsp: cannot preview the edit of ${path}: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
    const right = this.texts.add(path, proposed);
    const left = current ? current.uri : this.texts.add(path, '');
    await vscode.commands.executeCommand('vscode.diff', left, right, `${path}: current ↔ proposed by agent-lsp`, { preview: true });
    return right;
  }
}

/** showMessageRequest shows a window/showMessageRequest as it is, modal, with its buttons; the chosen title. */
export function showMessageRequest(p: ShowMessageRequestParams, titles: string[]): Thenable<string | undefined> {
  const show = p.type === 1 ? vscode.window.showErrorMessage : p.type === 2 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  return show(p.message, { modal: true }, ...titles);
}

/** openIfExists is the document at uri, open or read from disk; undefined for a new file. */
export async function openIfExists(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined; // a new file
  }
  return vscode.workspace.openTextDocument(uri);
}
