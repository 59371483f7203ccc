// "agent-lsp: Raise Spend Cap": a new session cap through /budget, which
// also goes on with a turn the cap stopped (docs/protocol.md, "Spend caps").

import * as vscode from 'vscode';
import type { ChatView } from './chatView';
import type { Session } from './session';
import { budgetPrompt } from './logic/spendStatus';

export async function raiseSpendCap(view: ChatView, session: Session): Promise<void> {
  const input = await vscode.window.showInputBox({
    prompt: "The session's cost cap in USD: a turn the cap stopped goes on",
    placeHolder: 'e.g. 5',
    validateInput: (v) => (budgetPrompt(v) ? undefined : 'a dollar amount above 0'),
  });
  const prompt = input === undefined ? undefined : budgetPrompt(input);
  if (!prompt) return;
  await view.reveal();
  await session.ask(prompt);
}
