// "agent-lsp: Rewind…": a quick pick over the session's checkpoints
// (agent/checkpoints), then what to rewind (the files, the conversation),
// then agent/rewind; what it did is shown in a message and in the chat,
// which is redrawn without the prompts it dropped.

import * as vscode from 'vscode';
import type { Daemon } from './daemon';
import type { Session } from './session';
import { checkpointItems, rewindOptionItems, rewindParams, rewindSummary, type CheckpointItem, type RewindOptionItem } from './logic/checkpoints';

export async function rewind(d: Daemon, session: Session): Promise<void> {
  const sessionId = session.id;
  if (!sessionId) {
    void vscode.window.showInformationMessage('agent-lsp: no session yet, so nothing to rewind.');
    return;
  }
  const { agent } = await d.agent();
  const checkpoints = await agent.checkpoints(sessionId);
  if (checkpoints.length === 0) {
    void vscode.window.showInformationMessage('agent-lsp: this session has no checkpoints yet (each prompt makes one).');
    return;
  }
  const items = checkpointItems(checkpoints, (t) => new Date(t).toLocaleString());
  const point = await vscode.window.showQuickPick<CheckpointItem & vscode.QuickPickItem>(items, {
    title: 'agent-lsp: rewind to before which prompt?',
    placeHolder: 'Newest first; each checkpoint is the state before its prompt',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!point) return;
  const options = await vscode.window.showQuickPick<RewindOptionItem & vscode.QuickPickItem>(rewindOptionItems(), {
    title: `agent-lsp: rewind to before "${point.label.replace(/^\d+\. /, '')}"`,
    placeHolder: 'What to rewind (Enter confirms)',
    canPickMany: true,
  });
  if (!options) return;
  const params = rewindParams(sessionId, point.checkpointId, options.map((o) => o.option));
  if (!params) {
    void vscode.window.showInformationMessage('agent-lsp: nothing picked, nothing rewound.');
    return;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'agent-lsp: rewinding (after the running prompt, if any)…' },
    () => agent.rewind(params),
  );
  // The open chat still draws the dropped prompts and answers: redraw it
  // from the daemon's conversation, which the rewind truncated.
  if (params.truncateConversation) await session.restore(false);
  const { message, warning } = rewindSummary(result);
  session.notice(`Rewound to before "${point.label.replace(/^\d+\. /, '')}": ${message}`);
  if (warning) void vscode.window.showWarningMessage(`agent-lsp: ${message}`);
  else void vscode.window.showInformationMessage(`agent-lsp: ${message}`);
}
