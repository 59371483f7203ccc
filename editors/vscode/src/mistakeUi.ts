// Shows a first-hour mistake (logic/mistakes.ts) as one notification
// with its fix as a button, once while it is on screen, whoever met it:
// the daemon's start, its initialized warning, each prompt, each command.

import * as vscode from 'vscode';
import { OneAtATime, type Mistake } from './logic/mistakes';

const onScreen = new OneAtATime();

/** showMistake shows m (error or warning) and runs the fix picked. */
export function showMistake(m: Mistake, severity: 'error' | 'warning' = 'error'): void {
  const show = severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const key = m.kind === 'other' ? `other:${m.message}` : m.kind;
  void onScreen.show(key, () => show(m.message, ...m.fixes.map((f) => f.title))).then((pick) => {
    const fix = m.fixes.find((f) => f.title === pick);
    if (!fix) return;
    if ('url' in fix) void vscode.env.openExternal(vscode.Uri.parse(fix.url));
    else if ('arg' in fix) void vscode.commands.executeCommand(fix.command, fix.arg);
    else void vscode.commands.executeCommand(fix.command);
  });
}

/** ShownError is a failure already shown to the user: its catcher only logs it. */
export class ShownError extends Error {
  constructor(readonly mistake: Mistake) {
    super(mistake.message.replace(/^agent-lsp: /, ''));
  }
}
