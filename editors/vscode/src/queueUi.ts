// What the chat's queue buttons and a task card's "Open transcript" do in
// VS Code: edit a waiting message through an input box or remove it
// (agent/queue), and show a subagent's conversation as a Markdown document.

import * as vscode from 'vscode';
import type { AgentClient, QueueItem } from './protocol';
import type { MessageQueue } from './logic/queue';
import { childTranscriptMarkdown } from './logic/childTranscript';

/**
 * changeQueued edits (asking for the new text) or removes a waiting
 * message. The daemon's queue update redraws the queue, not the answer:
 * an answer may arrive after a later update and would bring back a
 * message that started meanwhile.
 */
export async function changeQueued(agent: AgentClient, sessionId: string, queue: MessageQueue, item: QueueItem, action: 'edit' | 'remove'): Promise<void> {
  try {
    if (action === 'remove') {
      queue.removed(item.id);
      await agent.queue({ sessionId, remove: item.id });
      return;
    }
    const prompt = await vscode.window.showInputBox({ title: 'Edit the queued message', value: item.prompt, prompt: 'Enter saves it; Escape keeps it as it is' });
    if (prompt === undefined || prompt.trim() === '' || prompt === item.prompt) return;
    await agent.queue({ sessionId, edit: item.id, prompt });
  } catch (err) {
    // The daemon started or delivered it meanwhile (-32602 says so).
    void vscode.window.showInformationMessage(`agent-lsp: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The scheme of the read-only documents that show a subagent's conversation. */
export const subagentScheme = 'agent-lsp-subagent';

/**
 * SubagentDocs serves each opened child transcript as a read-only
 * document (an untitled one would be dirty and ask to be saved on
 * close); a closed one is forgotten.
 */
export class SubagentDocs implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  add(title: string, text: string): vscode.Uri {
    this.counter += 1;
    const name = (title || 'task').replace(/[^\w .-]+/g, '_').slice(0, 60);
    // The .md name makes it Markdown; the query keeps each opening apart.
    const uri = vscode.Uri.from({ scheme: subagentScheme, path: `/Subagent ${name}.md`, query: String(this.counter) });
    this.texts.set(uri.toString(), text);
    return uri;
  }

  forget(uri: vscode.Uri): void {
    this.texts.delete(uri.toString());
  }
}

/** openChildTranscript shows the conversation of the subagent a task call ran (agent/transcript with parentToolCallId). */
export async function openChildTranscript(docs: SubagentDocs, agent: AgentClient, sessionId: string, toolCallId: string, title: string): Promise<void> {
  const r = await agent.transcript(sessionId, toolCallId);
  const doc = await vscode.workspace.openTextDocument(docs.add(title, childTranscriptMarkdown(r, title)));
  await vscode.window.showTextDocument(doc, { preview: true });
}
