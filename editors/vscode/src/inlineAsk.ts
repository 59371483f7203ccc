// Alt+I, "agent-lsp: Inline Edit": a question or an instruction about the
// selection (the cursor's line when nothing is selected), answered next to
// it, where the user is looking, whether the chat is open or not. The
// answer streams into a comment thread under the selection (the Comments
// API: the public way to put a zone of rendered markdown between an
// editor's lines, as Copilot's inline chat does with its own zone); the
// chat gets the same prompt and answer as any other. An edit the answer
// makes goes through the approval or the review, as every edit does.

import * as vscode from 'vscode';
import type { Session } from './session';
import { answerEntries, answerMarkdown, threadLabel, type InlineQuestion, type InlineState } from './logic/inlineAnswer';

export const inlineAnswersId = 'agent-lsp-inline';

/** The answer being shown: its thread, where its prompt is, how far it is. */
interface Shown {
  thread: vscode.CommentThread;
  question: InlineQuestion;
  where: string;
  state: InlineState;
  progress?: string;
}

export class InlineAnswers implements vscode.Disposable {
  private readonly controller = vscode.comments.createCommentController(inlineAnswersId, 'agent-lsp');
  /** One answer is shown at a time: a new question replaces the last one's thread. */
  private shown?: Shown;

  constructor(private readonly session: Session) {
    // No range invites a comment: the threads are the agent's answers only.
    this.controller.options = { placeHolder: '', prompt: '' };
  }

  /** ask asks the question about range in doc and shows its answer under range's last line. */
  async ask(doc: vscode.TextDocument, sel: vscode.Range, instruction: string): Promise<void> {
    const rel = vscode.workspace.asRelativePath(doc.uri);
    const where = `${rel}:${sel.start.line + 1}-${sel.end.line + 1}`;
    const range = { start: { line: sel.start.line, character: sel.start.character }, end: { line: sel.end.line, character: sel.end.character } };
    this.dismiss();
    const thread = this.controller.createCommentThread(doc.uri, new vscode.Range(sel.end.line, 0, sel.end.line, 0), []);
    thread.canReply = false;
    thread.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
    const before = this.session.transcript.entries.length;
    const asking = this.session.ask(`Edit the selected code in ${rel}: ${instruction}`, { uri: doc.uri.toString(), range }, where, (m) => {
      if (this.shown?.thread !== thread) return;
      this.shown.progress = m;
      this.draw();
    });
    // ask added the prompt before its first await: this is its entry.
    const prompt = this.session.transcript.entries[before];
    if (!prompt || prompt.kind !== 'prompt') {
      thread.dispose(); // not asked (a prompt is still running: ask said so)
      return;
    }
    this.shown = { thread, question: { prompt }, where, state: 'running' };
    this.draw();
    await asking;
    if (this.shown?.thread !== thread) return;
    const tail = this.session.transcript.entries.slice(this.session.transcript.entries.indexOf(prompt) + 1);
    this.shown.state = tail.some((e) => e.kind === 'error') ? 'failed' : tail.some((e) => e.kind === 'notice' && /cancel/i.test(e.text)) ? 'cancelled' : 'done';
    this.shown.progress = undefined;
    this.draw();
  }

  /** changed redraws the shown answer from the transcript (an agent/update arrived). */
  changed(): void {
    if (this.shown?.state === 'running') this.draw();
  }

  /** dismiss removes the shown answer (a new question, the thread's close action). */
  dismiss(): void {
    this.shown?.thread.dispose();
    this.shown = undefined;
  }

  dispose(): void {
    this.dismiss();
    this.controller.dispose();
  }

  private draw(): void {
    const s = this.shown;
    if (!s) return;
    const entries = answerEntries(this.session.transcript.entries, s.question);
    if (!entries) return;
    const body = new vscode.MarkdownString(answerMarkdown(entries, s.state, s.progress), true);
    body.isTrusted = false;
    s.thread.label = threadLabel(s.where, s.state);
    // The thread's title actions: Cancel while it runs, Dismiss always (package.json menus).
    s.thread.contextValue = s.state === 'running' ? 'agentLspAnswerRunning' : 'agentLspAnswer';
    s.thread.comments = [{ author: { name: 'agent-lsp' }, body, mode: vscode.CommentMode.Preview }];
  }
}

/** inlineEdit runs Alt+I: the instruction asked in an input box, the answer shown by answers. */
export async function inlineEdit(session: Session, answers: InlineAnswers): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('agent-lsp: open a file and select the code to edit.');
    return;
  }
  if (session.busy) {
    void vscode.window.showInformationMessage('agent-lsp is still working on the last prompt: wait, or run "agent-lsp: Cancel".');
    return;
  }
  const doc = editor.document;
  // An empty selection means the line under the cursor.
  const sel = editor.selection.isEmpty ? doc.lineAt(editor.selection.active.line).range : editor.selection;
  const instruction = await vscode.window.showInputBox({
    prompt: `Inline edit of ${vscode.workspace.asRelativePath(doc.uri)}:${sel.start.line + 1}-${sel.end.line + 1}`,
    placeHolder: editor.selection.isEmpty ? "Ask about the cursor's line, or say how it should change" : 'Ask about the selection, or say how it should change',
  });
  if (!instruction) return;
  await answers.ask(doc, sel, instruction);
}
