// Apply on an answer's code block: the block as an edit of the active
// editor (its selected lines, or the whole file), shown in the same hunk
// review as the agent's edits (src/review.ts); only the hunks the user
// keeps are written, as one undoable edit. Nothing reaches the daemon: the
// user applies text they can read, the agent is not asked.

import * as vscode from 'vscode';
import { applyHunks, locateHunks } from './logic/review';
import { codeHunks, proposedText, selectedLines } from './logic/applyCode';
import { targetEditor } from './chatView';
import type { ReviewUi } from './review';

let applied = 0;

export async function applyCodeBlock(code: string, reviews: ReviewUi): Promise<void> {
  const editor = targetEditor();
  if (!editor) {
    void vscode.window.showInformationMessage('agent-lsp: open the file to apply the code to.');
    return;
  }
  const doc = editor.document;
  const current = doc.getText();
  const span = selectedLines(editor.selection.start, editor.selection.end);
  const hunks = codeHunks(current, proposedText(current, code, span));
  if (hunks.length === 0) {
    void vscode.window.showInformationMessage('agent-lsp: the code is already there.');
    return;
  }
  applied += 1;
  const path = vscode.workspace.asRelativePath(doc.uri);
  const cts = new vscode.CancellationTokenSource();
  try {
    const answer = await reviews.review({
      sessionId: '',
      toolCallId: `chat-apply-${applied}`,
      tool: 'apply',
      summary: `apply the code block to ${span ? `lines ${span.startLine + 1}–${span.endLine} of ` : ''}${path}`,
      path,
      uri: doc.uri.toString(),
      risk: 'LOW',
      reasons: ['a code block from the chat, applied by you'],
      hunks,
    }, cts.token, false);
    if (answer.decision === 'reject') return;
    const keep = answer.decision === 'accept' ? hunks.map((h) => h.id) : answer.acceptedHunks ?? [];
    // The user may have typed while reviewing: the hunks go where their text is now.
    const now = doc.getText();
    const next = applyHunks(now, locateHunks(now, hunks), keep);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(now.length)), next);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`${path} could not be edited`);
  } finally {
    cts.dispose();
  }
}
