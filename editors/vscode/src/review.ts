// agent/review in VS Code: a diff editor between the document and the
// proposed text with every hunk, lenses "Accept hunk N" / "Reject hunk N"
// over each hunk on the diff's right side and "Finish" / "Reject the whole
// edit" / "Pick hunks" over its first line, and a multi-select quick pick
// of the same hunks (both toggle one selection); Enter or Finish goes on
// to an input box for feedback, then the answer. Escape only hides the
// pick: the diff stays with its lenses and a status bar item shows the
// pick again, the edit waits until the user decides. A cancelled prompt
// or a daemon that gave up on the call answers reject.

import * as vscode from 'vscode';
import { ProposedTexts, openIfExists, proposedScheme } from './approvals';
import type { ReviewAnswer, ReviewParams, Update } from './protocol';
import {
  HunkSelection,
  applyHunks,
  hunkLensTitles,
  finishLensTitles,
  hunkPickItems,
  locateHunks,
  pendingReviewText,
  proposedPlaces,
  rejectAll,
  reviewAnswer,
  reviewPlaceholder,
  reviewTitle,
  selectionSummary,
  splitLines,
  type HunkPickItem,
  type HunkPlace,
} from './logic/review';

const toggleCommand = 'agentLsp.review.setHunk';
const finishCommand = 'agentLsp.review.finish';
const resumeCommand = 'agentLsp.review.resume';

interface OpenReview {
  params: ReviewParams;
  selection: HunkSelection;
  places: HunkPlace[];
  /** Tells the quick pick the selection changed from a lens. */
  changed: vscode.EventEmitter<void>;
  abort: vscode.EventEmitter<void>;
  /** Ends the pick with these ids (the Finish or Reject lens). */
  finish: vscode.EventEmitter<number[]>;
  /** Shows the pick again after Escape hid it. */
  resume: vscode.EventEmitter<void>;
}

export class ReviewUi implements vscode.CodeLensProvider, vscode.Disposable {
  /** Open reviews by the URI of their diff's right side. */
  private readonly open = new Map<string, OpenReview>();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;

  constructor(private readonly texts: ProposedTexts) {}

  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.languages.registerCodeLensProvider({ scheme: proposedScheme }, this),
      vscode.commands.registerCommand(toggleCommand, (uri: string, id: number, accept: boolean) => {
        const r = this.open.get(uri);
        if (!r) return;
        r.selection.set(id, accept);
        r.changed.fire();
        this.lensesChanged.fire();
      }),
      vscode.commands.registerCommand(finishCommand, (uri: string, rejectAll: boolean) => {
        const r = this.open.get(uri);
        if (r) r.finish.fire(rejectAll ? [] : r.selection.ids());
      }),
      vscode.commands.registerCommand(resumeCommand, (uri: string) => this.open.get(uri)?.resume.fire()),
    );
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const key = doc.uri.toString();
    const r = this.open.get(key);
    if (!r) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses: vscode.CodeLens[] = [
      new vscode.CodeLens(top, { title: finishLensTitles.finish, command: finishCommand, arguments: [key, false] }),
      new vscode.CodeLens(top, { title: finishLensTitles.rejectAll, command: finishCommand, arguments: [key, true] }),
      new vscode.CodeLens(top, { title: finishLensTitles.resume, command: resumeCommand, arguments: [key] }),
    ];
    for (const p of r.places) {
      const line = Math.min(p.line, Math.max(doc.lineCount - 1, 0));
      const range = new vscode.Range(line, 0, line, 0);
      const titles = hunkLensTitles(p.id, r.selection.has(p.id));
      const note = p.deletes ? ' (deletes the lines above)' : '';
      lenses.push(
        new vscode.CodeLens(range, { title: titles.accept + note, command: toggleCommand, arguments: [key, p.id, true] }),
        new vscode.CodeLens(range, { title: titles.reject, command: toggleCommand, arguments: [key, p.id, false] }),
      );
    }
    return lenses;
  }

  /** onUpdate aborts the review of a tool call the daemon has finished with (cancelled, timed out). */
  onUpdate(u: Update): void {
    if (u.kind !== 'tool_result') return;
    for (const r of this.open.values()) if (r.params.toolCallId === u.toolCallId) r.abort.fire();
  }

  /**
   * review answers one agent/review; it never throws (a failure is reject).
   * withFeedback false skips the feedback box: a code block applied from
   * the chat has no agent waiting to read it.
   */
  async review(params: ReviewParams, token: vscode.CancellationToken, withFeedback = true): Promise<ReviewAnswer> {
    const hunks = params.hunks ?? [];
    if (hunks.length === 0) return rejectAll;
    const cleanup: Array<() => void> = [];
    try {
      const { right, places, note } = await this.openDiff(params, cleanup);
      const r: OpenReview = {
        params,
        selection: new HunkSelection(hunks),
        places,
        changed: new vscode.EventEmitter(),
        abort: new vscode.EventEmitter(),
        finish: new vscode.EventEmitter(),
        resume: new vscode.EventEmitter(),
      };
      cleanup.push(() => {
        r.changed.dispose();
        r.abort.dispose();
        r.finish.dispose();
        r.resume.dispose();
      });
      // Keyed by the diff's right side, which the lenses look up; a review
      // shown as plain diffs (no right side) still needs a key to resume.
      const key = right ? right.toString() : `agent-lsp-review:${params.toolCallId}`;
      this.open.set(key, r);
      cleanup.push(() => {
        this.open.delete(key);
        this.lensesChanged.fire();
      });
      this.lensesChanged.fire();
      const sub = token.onCancellationRequested(() => r.abort.fire());
      cleanup.push(() => sub.dispose());

      const picked = await this.pick(r, note, key);
      if (picked === undefined) return rejectAll;
      const feedback = withFeedback ? await this.askFeedback(r, picked, token) : undefined;
      if (feedback === aborted) return rejectAll;
      return reviewAnswer(hunks, picked, feedback);
    } catch (err) {
      void vscode.window.showErrorMessage(`agent-lsp: the review of ${params.path} failed: ${err instanceof Error ? err.message : String(err)}`);
      return rejectAll;
    } finally {
      for (const f of cleanup.reverse()) f();
    }
  }

  /** openDiff shows the document beside the proposed text; without a faithful text, the hunks' diffs. */
  private async openDiff(params: ReviewParams, cleanup: Array<() => void>): Promise<{ right?: vscode.Uri; places: HunkPlace[]; note: string }> {
    const uri = vscode.Uri.parse(params.uri);
    const current = await openIfExists(uri);
    const text = current?.getText() ?? '';
    let proposed: string;
    let hunks;
    try {
      hunks = locateHunks(text, params.hunks);
      proposed = applyHunks(text, hunks);
    } catch (err) {
      // The buffer moved under the hunks: show them as unified diffs.
      const diffs = this.texts.add(`${params.path}.review.diff`, params.hunks.map((h) => h.diff).join('\n'));
      cleanup.push(() => this.texts.forget(diffs));
      await vscode.window.showTextDocument(diffs, { preview: true, preserveFocus: true });
      cleanup.push(() => void closeTabs((input) => input instanceof vscode.TabInputText && input.uri.toString() === diffs.toString()));
      return { places: [], note: ` (the document changed: ${err instanceof Error ? err.message : String(err)})` };
    }
    const right = this.texts.add(params.path, proposed);
    cleanup.push(() => this.texts.forget(right));
    let left = current?.uri;
    if (!left) {
      left = this.texts.add(params.path, '');
      const empty = left;
      cleanup.push(() => this.texts.forget(empty));
    }
    const title = `${params.path}: review ${params.summary || params.tool} (risk ${params.risk})`;
    // Not a preview: it would take the place of the user's preview tab of
    // the file, which closing the review would then leave closed.
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: false, preserveFocus: true });
    cleanup.push(() => void closeTabs((input) => input instanceof vscode.TabInputTextDiff && input.modified.toString() === right.toString()));
    return { right, places: proposedPlaces(hunks, splitLines(proposed).length), note: '' };
  }

  /**
   * pick is the multi-select quick pick: the accepted ids, or undefined
   * (aborted). Escape hides the pick and nothing else: the review waits
   * behind a status bar item (and the diff's lenses) that show it again.
   */
  private pick(r: OpenReview, note: string, key: string): Promise<number[] | undefined> {
    const items = hunkPickItems(r.params.hunks);
    const pending = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 1000);
    pending.text = pendingReviewText(r.params);
    pending.tooltip = 'agent-lsp: the edit waits for your review; click to pick its hunks';
    pending.command = { title: 'Review', command: resumeCommand, arguments: [key] };
    return new Promise((resolve) => {
      let done = false;
      // A hidden QuickPick shown again lists no items (VS Code 1.139): each
      // showing is a new one, with the selection as it is now.
      let qp: vscode.QuickPick<HunkPickItem & vscode.QuickPickItem> | undefined;
      let qpSubs: vscode.Disposable[] = [];
      const closePick = (): void => {
        for (const s of qpSubs) s.dispose();
        qpSubs = [];
        qp?.dispose();
        qp = undefined;
      };
      let syncing = false;
      const sync = (): void => {
        if (!qp) return;
        syncing = true;
        qp.selectedItems = items.filter((i) => r.selection.has(i.id));
        syncing = false;
      };
      const finish = (ids: number[] | undefined): void => {
        if (done) return;
        done = true;
        for (const s of subs) s.dispose();
        closePick();
        pending.dispose();
        resolve(ids);
      };
      const show = (): void => {
        if (done || qp) return;
        pending.hide();
        const pick = vscode.window.createQuickPick<HunkPickItem & vscode.QuickPickItem>();
        qp = pick;
        pick.items = items;
        pick.canSelectMany = true;
        pick.ignoreFocusOut = true;
        pick.matchOnDetail = true;
        pick.title = reviewTitle(r.params, note);
        pick.placeholder = reviewPlaceholder;
        sync();
        qpSubs.push(
          pick.onDidChangeSelection((sel) => {
            if (syncing) return;
            r.selection.replace(sel.map((i) => i.id));
            this.lensesChanged.fire();
          }),
          pick.onDidAccept(() => finish(r.selection.ids())),
          pick.onDidHide(() => {
            // Escape (or another quick input took the place): postpone.
            if (done) return;
            closePick();
            pending.show();
          }),
        );
        pick.show();
      };
      const subs: vscode.Disposable[] = [
        r.changed.event(sync),
        r.finish.event((ids) => finish(ids)),
        r.resume.event(show),
        r.abort.event(() => finish(undefined)),
      ];
      show();
    });
  }

  /** askFeedback is the optional feedback (Escape: none), or aborted. */
  private async askFeedback(r: OpenReview, picked: number[], token: vscode.CancellationToken): Promise<string | undefined | typeof aborted> {
    const cts = new vscode.CancellationTokenSource();
    const subs = [token.onCancellationRequested(() => cts.cancel()), r.abort.event(() => cts.cancel())];
    try {
      const feedback = await vscode.window.showInputBox(
        {
          title: `agent-lsp: ${selectionSummary(r.params.hunks, picked)}`,
          prompt: 'Feedback for the agent, sent with your decision (optional; Enter sends)',
          placeHolder: 'e.g. keep the old name',
          ignoreFocusOut: true,
        },
        cts.token,
      );
      return cts.token.isCancellationRequested ? aborted : feedback;
    } finally {
      for (const s of subs) s.dispose();
      cts.dispose();
    }
  }

  dispose(): void {
    for (const r of this.open.values()) r.abort.fire();
    this.lensesChanged.dispose();
  }
}

const aborted = Symbol('aborted');

async function closeTabs(match: (input: unknown) => boolean): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => match(t.input));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}
