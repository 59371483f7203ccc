// The chat view: a webview view that shows the transcript rendered by
// src/logic/render.ts and sends the user's prompts to the controller, and
// what the answers' code blocks and links ask for (copy, insert, apply,
// open a file at a line, open a web link).

import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { renderEntry, renderPage, renderTranscript } from './logic/render';
import { AnswerRenderer } from './logic/markdownStream';
import { WorkspaceFiles } from './logic/workspaceFiles';
import type { Transcript } from './logic/transcript';
import type { Completion } from './logic/completion';
import { queueHtml } from './logic/renderChild';
import type { PromptImage, QueueItem } from './protocol';
import { promptImages } from './logic/images';

export const chatViewId = 'agentLsp.chat';

export interface ChatActions {
  /** prompt sends what the user typed; steer: the steer button or key (while a prompt runs: delivered to it). */
  prompt(text: string, steer: boolean, images: PromptImage[]): void;
  cancel(): void;
  /** queueAction edits or removes a waiting message. */
  queueAction?(action: 'edit' | 'remove', id: string): void;
  /** childTranscript opens the transcript of the subagent a task call ran. */
  childTranscript?(toolCallId: string): void;
  /** What to suggest for the input's text with the cursor at cursor. */
  complete(text: string, cursor: number): Promise<Completion | undefined>;
  /** apply offers a code block as an edit of the active editor, through the hunk review. */
  apply?(code: string): Promise<void>;
}

/** What the webview script posts. */
interface WebviewMessage {
  type?: string;
  text?: string;
  cursor?: number;
  id?: number | string;
  action?: string;
  code?: string;
  path?: string;
  line?: number;
  href?: string;
  steer?: boolean;
  toolCallId?: string;
  /** The images pasted or dropped into the input: [{name, mimeType, data}] (checked: logic/images.ts). */
  images?: unknown;
}

export class ChatView implements vscode.WebviewViewProvider {
  private view?: vscode.WebviewView;
  private status = '';
  private queueHtml = '';
  private busy = false;
  private readonly files = new WorkspaceFiles(() => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
  private readonly answers = new AnswerRenderer((candidate) => (this.files.resolve(candidate) ? candidate : undefined));
  /** How many final blocks of each streaming answer the webview has; the rest it is sent. */
  private sentBlocks = new WeakMap<object, number>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly transcript: Transcript,
    private readonly actions: ChatActions,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.sentBlocks = new WeakMap();
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [media] };
    view.webview.html = renderPage({
      nonce: randomBytes(16).toString('base64'),
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'chat.js')).toString(),
      transcriptHtml: this.renderAll(),
      queueHtml: this.queueHtml,
      status: this.status,
    });
    view.webview.onDidReceiveMessage((msg: WebviewMessage) => {
      if (msg.type === 'prompt' && typeof msg.text === 'string') {
        const { images, refused } = promptImages(msg.images);
        if (refused.length > 0) void vscode.window.showWarningMessage(`agent-lsp: not sent: ${refused.join('; ')}`);
        this.actions.prompt(msg.text, msg.steer === true, images);
      }
      else if (msg.type === 'queueAction' && (msg.action === 'edit' || msg.action === 'remove') && typeof msg.id === 'string') this.actions.queueAction?.(msg.action, msg.id);
      else if (msg.type === 'childTranscript' && typeof msg.toolCallId === 'string') this.actions.childTranscript?.(msg.toolCallId);
      else if (msg.type === 'cancel') this.actions.cancel();
      else if (msg.type === 'ready') this.reset();
      else if (msg.type === 'complete' && typeof msg.text === 'string' && typeof msg.cursor === 'number') void this.complete(typeof msg.id === 'number' ? msg.id : 0, msg.text, msg.cursor);
      else if (msg.type === 'code' && typeof msg.code === 'string') void this.codeAction(msg.action, msg.code).catch(showError);
      else if (msg.type === 'openPath' && typeof msg.path === 'string') void this.openPath(msg.path, msg.line).catch(showError);
      else if (msg.type === 'openLink' && typeof msg.href === 'string') void openLink(msg.href);
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

  /**
   * changed re-renders the given entries (new ones are appended). A
   * streaming answer the webview already shows is sent as its new final
   * blocks and its tail only (src/logic/markdownStream.ts says why).
   */
  changed(indices: readonly number[]): void {
    if (!this.view || indices.length === 0) return;
    const entries: Array<{ index: number; html: string }> = [];
    for (const index of new Set(indices)) {
      const e = this.transcript.entries[index];
      const sent = this.sentBlocks.get(e);
      if (e.kind === 'text' && sent !== undefined) {
        const r = this.answers.stream(e, e.text);
        if (!r.restarted && r.blocks.length >= sent) {
          this.sentBlocks.set(e, r.blocks.length);
          void this.view.webview.postMessage({ type: 'answer', index, blocks: r.blocks.slice(sent), tail: r.tail });
          continue;
        }
      }
      entries.push({ index, html: this.render(index) });
    }
    if (entries.length > 0) void this.view.webview.postMessage({ type: 'entries', entries });
  }

  /** reset re-renders the whole transcript (after it was cleared). */
  reset(): void {
    this.files.forget();
    void this.view?.webview.postMessage({ type: 'reset', html: this.renderAll() });
    void this.view?.webview.postMessage({ type: 'status', text: this.status });
    void this.view?.webview.postMessage({ type: 'queue', html: this.queueHtml });
    void this.view?.webview.postMessage({ type: 'busy', busy: this.busy });
  }

  /** setQueue shows the messages waiting above the input (renderChild.ts queueHtml). */
  setQueue(items: readonly QueueItem[]): void {
    this.queueHtml = queueHtml(items);
    void this.view?.webview.postMessage({ type: 'queue', html: this.queueHtml });
  }

  /** setBusy tells the input a prompt runs: Enter then queues, and the Steer button shows. */
  setBusy(busy: boolean): void {
    this.busy = busy;
    void this.view?.webview.postMessage({ type: 'busy', busy });
  }

  private render(index: number): string {
    const e = this.transcript.entries[index];
    const html = renderEntry(e, index, this.answers);
    if (e.kind === 'text') this.sentBlocks.set(e, this.answers.stream(e, e.text).blocks.length);
    return html;
  }

  private renderAll(): string {
    this.sentBlocks = new WeakMap();
    const html = renderTranscript(this.transcript.entries, this.answers);
    for (const e of this.transcript.entries) if (e.kind === 'text') this.sentBlocks.set(e, this.answers.stream(e, e.text).blocks.length);
    return html;
  }

  setStatus(text: string): void {
    this.status = text;
    void this.view?.webview.postMessage({ type: 'status', text });
  }

  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${chatViewId}.focus`);
    void this.view?.webview.postMessage({ type: 'focus' });
  }

  /** codeAction is a code block's button: Copy, Insert at the cursor, or Apply (reviewed). */
  private async codeAction(action: string | undefined, code: string): Promise<void> {
    if (action === 'copy') {
      await vscode.env.clipboard.writeText(code);
      void vscode.window.setStatusBarMessage('agent-lsp: code copied', 2000);
      return;
    }
    if (action === 'apply') {
      await this.actions.apply?.(code);
      return;
    }
    if (action !== 'insert') return;
    const editor = targetEditor();
    if (!editor) {
      void vscode.window.showInformationMessage('agent-lsp: open a file to insert the code into.');
      return;
    }
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await editor.edit((b) => {
      for (const sel of editor.selections) b.replace(sel, code);
    });
  }

  /** openPath opens a linked file at its line; only a file inside the workspace (the link was made so, and is checked again). */
  private async openPath(candidate: string, line?: number): Promise<void> {
    const file = this.files.resolve(candidate);
    if (!file) {
      void vscode.window.showWarningMessage(`agent-lsp: ${candidate} is not a file in the workspace.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    const at = typeof line === 'number' && line > 0 ? Math.min(line - 1, doc.lineCount - 1) : 0;
    const pos = new vscode.Position(at, 0);
    await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
  }
}

/** targetEditor is the editor a code block goes to: the active one, or the one last visible. */
export function targetEditor(): vscode.TextEditor | undefined {
  return vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme !== 'output');
}

/** openLink opens a web link from an answer in the browser; no other scheme (the renderer keeps no other). */
async function openLink(href: string): Promise<void> {
  if (!/^(?:https?:|mailto:)/i.test(href)) return;
  await vscode.env.openExternal(vscode.Uri.parse(href, true));
}

function showError(err: unknown): void {
  void vscode.window.showErrorMessage(`agent-lsp: ${err instanceof Error ? err.message : String(err)}`);
}
