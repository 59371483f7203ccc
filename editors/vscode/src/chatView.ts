// The chat view: a webview view that shows the transcript rendered by
// src/logic/render.ts and sends the user's prompts to the controller.

import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { renderEntry, renderPage, renderTranscript } from './logic/render';
import type { Transcript } from './logic/transcript';
import type { Completion } from './logic/completion';

export const chatViewId = 'agentLsp.chat';

export interface ChatActions {
  prompt(text: string): void;
  cancel(): void;
  /** What to suggest for the input's text with the cursor at cursor. */
  complete(text: string, cursor: number): Promise<Completion | undefined>;
}

/** What the webview script posts. */
interface WebviewMessage {
  type?: string;
  text?: string;
  cursor?: number;
  id?: number;
}

export class ChatView implements vscode.WebviewViewProvider {
  private view?: vscode.WebviewView;
  private status = '';

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly transcript: Transcript,
    private readonly actions: ChatActions,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = renderPage({
      nonce: randomBytes(16).toString('base64'),
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.js')).toString(),
      transcriptHtml: renderTranscript(this.transcript.entries),
      status: this.status,
    });
    view.webview.onDidReceiveMessage((msg: WebviewMessage) => {
      if (msg.type === 'prompt' && typeof msg.text === 'string') this.actions.prompt(msg.text);
      else if (msg.type === 'cancel') this.actions.cancel();
      else if (msg.type === 'ready') this.reset();
      else if (msg.type === 'complete' && typeof msg.text === 'string' && typeof msg.cursor === 'number') void this.complete(msg.id ?? 0, msg.text, msg.cursor);
    });
    view.onDidDispose(() => {
      this.view = undefined;
    });
  }

  /** complete answers one completion request of the input; the script drops answers to an older id. */
  private async complete(id: number, text: string, cursor: number): Promise<void> {
    let c: Completion | undefined;
    try {
      c = await this.actions.complete(text, cursor);
    } catch {
      c = undefined;
    }
    void this.view?.webview.postMessage({ type: 'suggestions', id, start: c?.start ?? 0, end: c?.end ?? 0, items: c?.items ?? [] });
  }

  /** changed re-renders the given entries (new ones are appended). */
  changed(indices: readonly number[]): void {
    if (!this.view || indices.length === 0) return;
    const entries = [...new Set(indices)].map((index) => ({ index, html: renderEntry(this.transcript.entries[index], index) }));
    void this.view.webview.postMessage({ type: 'entries', entries });
  }

  /** reset re-renders the whole transcript (after it was cleared). */
  reset(): void {
    void this.view?.webview.postMessage({ type: 'reset', html: renderTranscript(this.transcript.entries) });
    void this.view?.webview.postMessage({ type: 'status', text: this.status });
  }

  setStatus(text: string): void {
    this.status = text;
    void this.view?.webview.postMessage({ type: 'status', text });
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${chatViewId}.focus`);
    void this.view?.webview.postMessage({ type: 'focus' });
  }
}
