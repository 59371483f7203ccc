// The conversation the editor shows: its session id (kept in the
// workspace state, so a restarted daemon or window resumes it), its
// transcript, its plan, mode and model, the running prompt, its queue
// (queued and steer messages, logic/queue.ts), progress and cost.

import * as vscode from 'vscode';
import { WorkDoneProgress, type WorkDoneProgressBegin, type WorkDoneProgressReport, type WorkDoneProgressEnd } from 'vscode-languageclient/node';
import type { Daemon } from './daemon';
import type { ChatView } from './chatView';
import type { PlanView } from './planView';
import { newProgressToken, promptParams, type CurrentModel, type Delivery, type Mode, type PromptContext, type PromptImage, type QueueItem, type Update } from './protocol';
import { imagesLabel } from './logic/images';
import { MessageQueue, queuedAnswerShown, removedNotice, sendDelivery } from './logic/queue';
import { Transcript } from './logic/transcript';
import { statusView, type StatusState } from './logic/status';
import { applyRestore, restoreOutcome } from './logic/restore';
import type { CompletionStatus } from './logic/inline';
import { promptMistake, type Mistake } from './logic/mistakes';
import { ShownError, showMistake } from './mistakeUi';
import { changeQueued, openChildTranscript, SubagentDocs } from './queueUi';

const sessionKey = 'agentLsp.sessionId';

export class Session {
  readonly transcript = new Transcript();
  /** The session's waiting messages, as its queue updates say. */
  readonly queue = new MessageQueue();
  private running = false;
  /** The prompts sent with a delivery (queued or steer) not answered yet. */
  private delivered = 0;
  private state: StatusState = {};
  /** Counts redraws from the daemon, so a slow answer for a session left since is dropped. */
  private restoring = 0;
  /** The prompt a missing key stopped before the daemon stored it: Set API Key sends it again. */
  private unsent?: { prompt: string; context?: PromptContext; contextLabel?: string };
  view?: ChatView;
  plan?: PlanView;
  /** Where an opened child transcript's text is served from (queueUi.ts). */
  readonly subagentDocs = new SubagentDocs();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly daemon: () => Daemon,
    private readonly statusItem: vscode.StatusBarItem,
  ) {
    this.render();
  }

  get id(): string | undefined {
    return this.context.workspaceState.get<string>(sessionKey);
  }

  /** busy: a prompt of the chat's runs or waits (queued, steering) for its answer. */
  get busy(): boolean {
    return this.running || this.delivered > 0;
  }

  private async setId(id: string | undefined): Promise<void> {
    await this.context.workspaceState.update(sessionKey, id);
  }

  get mode(): Mode | undefined {
    return this.state.mode;
  }

  get model(): CurrentModel | undefined {
    return this.state.model;
  }

  onUpdate(u: Update): void {
    if (u.sessionId !== this.id) return;
    if (u.kind === 'plan') this.plan?.set(u.items ?? []);
    else if (u.kind === 'mode') this.state.mode = u.mode;
    else if (u.kind === 'model') this.state.model = { provider: u.provider, model: u.model, baseURL: u.baseURL };
    if ((u.kind === 'round_end' || u.kind === 'compacted') && u.spend) {
      this.state.spend = u.spend; // the status bar's cap (logic/spendStatus.ts)
      for (const w of u.spend.warnings ?? []) void vscode.window.showWarningMessage(`agent-lsp: ${w}`);
    }
    // A prompt's first-hour mistake is told once, by its end (ask).
    else if (u.kind === 'error' && this.running && promptMistake(u.message).kind !== 'other') return;
    else if (u.kind === 'queue') return this.queueChanged(u.items);
    const changed = this.queueRan(u);
    changed.push(...this.transcript.apply(u));
    if (this.transcript.totals) this.state.totals = this.transcript.totals;
    this.view?.changed(changed);
    this.render();
  }

  setDown(reason: string | undefined): void {
    this.state.down = reason;
    this.render();
    // A (re)started daemon (a window reload starts one): draw the
    // session's conversation, mode, model and plan from it.
    if (reason === undefined) {
      void this.refresh();
      if (!this.busy) void this.restore();
    }
  }

  /**
   * ensureId is the session's id, making a session when there is none
   * (a mode or model is set before the first prompt).
   */
  async ensureId(): Promise<string> {
    const id = this.id;
    if (id) return id;
    const { agent } = await this.daemon().agent();
    const made = await agent.newSession();
    await this.setId(made);
    await this.refresh();
    return made;
  }

  /** refresh reads the session's mode, model and plan (agent/session); the daemon's model when there is no session. */
  async refresh(): Promise<void> {
    const id = this.id;
    try {
      const { agent } = await this.daemon().agent();
      if (id) {
        const st = await agent.session(id);
        if (id !== this.id) return;
        this.state.mode = st.mode;
        this.state.model = { provider: st.provider, model: st.model, baseURL: st.baseURL };
        this.plan?.set(st.plan);
      } else {
        const { current } = await agent.models();
        this.state.mode = undefined;
        this.state.model = current;
        this.plan?.set([]);
      }
      this.render();
    } catch {
      // A session the daemon no longer has, or no daemon: the next prompt says why.
    }
  }

  /** noteMode and noteModel record what the daemon answered (its update says the same). */
  noteMode(mode: Mode): void {
    this.state.mode = mode;
    this.render();
  }

  noteModel(model: CurrentModel): void {
    this.state.model = model;
    this.render();
  }

  /** noteCompletion shows agent/completionStatus (inline completion) in the status bar. */
  noteCompletion(status: CompletionStatus): void {
    this.state.completion = status;
    this.render();
  }

  /**
   * ask runs one prompt in this session (a new one when there is none) and
   * resolves when it is over. progress, when given, also hears the
   * daemon's progress messages (the inline edit's notification).
   */
  async ask(prompt: string, context?: PromptContext, contextLabel?: string, progress?: (message: string) => void, images: PromptImage[] = []): Promise<void> {
    if (this.busy) {
      void vscode.window.showInformationMessage('agent-lsp is still working on the last prompt: queue it in the chat, wait, or run "agent-lsp: Cancel".');
      return;
    }
    this.running = true;
    this.busyChanged();
    this.restoring += 1; // a redraw still on its way would wipe this prompt
    this.view?.changed([this.transcript.addPrompt(prompt, contextLabel)]);
    this.setProgress('Starting');
    const token = newProgressToken();
    let progressSub: vscode.Disposable | undefined;
    try {
      const { client, agent } = await this.daemon().agent();
      if (!this.id) {
        await this.setId(await agent.newSession());
        void this.refresh();
      }
      progressSub = client.onProgress(WorkDoneProgress.type, token, (v: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
        if (v.kind === 'end') return;
        if (v.message) {
          this.setProgress(v.message);
          progress?.(v.message);
        }
      });
      const result = await agent.prompt(promptParams(prompt, { sessionId: this.id, context, workDoneToken: token, images }));
      if (result.sessionId !== this.id) await this.setId(result.sessionId);
      if (result.stopReason === 'error') this.failed(this.mistake(result.error ?? 'the prompt failed'), { prompt, context, contextLabel }, true);
      else this.view?.changed(this.transcript.finish(result));
      if (result.notice) this.view?.changed([this.transcript.addNotice(result.notice)]);
      if (result.stopReason !== 'error') this.unsent = undefined;
    } catch (err) {
      const mistake = err instanceof ShownError ? err.mistake : this.mistake(err instanceof Error ? err.message : String(err));
      this.failed(mistake, { prompt, context, contextLabel }, false, err instanceof ShownError);
      if (mistake.kind === 'other') {
        const resume = this.id ? ' The session keeps its last complete round: ask again to continue.' : '';
        this.view?.changed([this.transcript.addNotice(`The prompt did not finish.${resume}`)]);
      }
    } finally {
      progressSub?.dispose();
      this.running = false;
      if (!this.busy) this.setProgress(undefined);
      this.busyChanged();
    }
  }

  /**
   * send is what the chat's input sends: while a prompt runs, Enter
   * queues it and the steer key steers the running turn; when idle it
   * runs at once (ask).
   */
  async send(prompt: string, steer: boolean, images: PromptImage[] = []): Promise<void> {
    // A steer message is text the running turn reads: images are queued.
    const delivery = sendDelivery(this.busy, steer && images.length === 0);
    if (!delivery || !this.id) return this.ask(prompt, undefined, imagesLabel(images.length), undefined, images);
    await this.sendDelivered(prompt, delivery, this.id, images);
  }

  /**
   * sendDelivered sends a prompt while another runs. The chat draws it
   * when it leaves the queue (queueChanged); its answer ends it as any
   * prompt's, unless it was a steer message delivered to the running
   * turn or removed before it started (both end nothing shown).
   */
  private async sendDelivered(prompt: string, delivery: Delivery, id: string, images: PromptImage[] = []): Promise<void> {
    this.delivered += 1;
    this.restoring += 1;
    this.busyChanged();
    const token = newProgressToken();
    let progressSub: vscode.Disposable | undefined;
    try {
      const { client, agent } = await this.daemon().agent();
      progressSub = client.onProgress(WorkDoneProgress.type, token, (v: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd) => {
        if (v.kind !== 'end' && v.message) this.setProgress(v.message);
      });
      const result = await agent.prompt(promptParams(prompt, { sessionId: id, workDoneToken: token, delivery, images }));
      if (id !== this.id) return;
      if (result.notice === removedNotice) this.queue.dropped(prompt);
      if (!queuedAnswerShown(result)) return;
      this.view?.changed(this.transcript.finish(result));
      if (result.notice) this.view?.changed([this.transcript.addNotice(result.notice)]);
    } catch (err) {
      if (id === this.id) this.view?.changed([this.transcript.addNotice(`Not sent: ${prompt} (${err instanceof Error ? err.message : String(err)})`)]);
    } finally {
      progressSub?.dispose();
      this.delivered -= 1;
      if (!this.busy) this.setProgress(undefined);
      this.busyChanged();
    }
  }

  /**
   * queueChanged takes the session's queue (a queue update): a queued
   * prompt that left it started, and shows as the user's prompt (a steer
   * message shows by its steer update, or by queueRan).
   */
  private queueChanged(items: QueueItem[] | null): void {
    this.view?.changed(this.queue.update(items).map((item) => this.transcript.addPrompt(item.prompt)));
    this.view?.setQueue(this.queue.items);
    this.state.queued = this.queue.length;
    this.render();
  }

  /**
   * queueRan draws, before an update, what it says of the queue: a steer
   * update ends a steer message's leaving (the transcript shows it); the
   * session's own output shows that a steer message that left runs as a
   * prompt (the turn had ended before a safe point).
   */
  private queueRan(u: Update): number[] {
    if (u.kind === 'steer') this.queue.delivered(u.id);
    else if ((u.kind === 'text' || u.kind === 'reasoning' || u.kind === 'tool_call') && !u.parentToolCallId) {
      return this.queue.outputStarted().map((item) => this.transcript.addPrompt(item.prompt));
    }
    return [];
  }

  /** queueAction edits or removes a waiting message (queueUi.ts). */
  async queueAction(action: 'edit' | 'remove', itemId: string): Promise<void> {
    const item = this.queue.find(itemId);
    const id = this.id;
    if (!id || !item) return;
    const { agent } = await this.daemon().agent();
    await changeQueued(agent, id, this.queue, item, action);
  }

  /** childTranscript opens the conversation of the subagent a task call ran. */
  async childTranscript(toolCallId: string): Promise<void> {
    const id = this.id;
    if (!id) return;
    const { agent } = await this.daemon().agent();
    const card = this.transcript.entries.find((e) => e.kind === 'tool' && e.toolCallId === toolCallId);
    await openChildTranscript(this.subagentDocs, agent, id, toolCallId, card && card.kind === 'tool' ? card.detail : '');
  }

  private busyChanged(): void {
    this.view?.setBusy(this.busy); // the input: Enter queues and Steer shows while busy
  }

  private mistake(error: string): Mistake {
    return promptMistake(error, this.state.model?.baseURL);
  }

  /**
   * failed ends a prompt that failed: one line in the chat and one
   * notification with the fix, unless it was shown already (shown) or is
   * no recognised mistake of a request that failed (the chat's line
   * alone, as before).
   */
  private failed(m: Mistake, asked: NonNullable<Session['unsent']>, answered: boolean, shown = false): void {
    this.view?.changed(this.transcript.finish({ stopReason: 'error', error: m.message.replace(/^agent-lsp: /, '') }));
    this.unsent = m.kind === 'noKey' ? asked : undefined;
    if (!shown && (m.kind !== 'other' || answered)) showMistake(m);
  }

  /**
   * keySet follows Set API Key's restart: a prompt a missing key stopped
   * was never stored, so the daemon does not know its session; the chat
   * keeps its lines and the prompt is sent again in a new session. A
   * stored session (a rejected key) was redrawn by the restart and goes on.
   */
  async keySet(): Promise<void> {
    const unsent = this.unsent;
    if (!unsent || this.busy) return;
    this.unsent = undefined;
    await this.setId(undefined);
    this.view?.changed([this.transcript.addNotice('Key set: sending the prompt again.')]);
    await this.ask(unsent.prompt, unsent.context, unsent.contextLabel);
  }

  /** cancel stops the running prompt; the queued ones then run, unless dropQueue. */
  async cancel(dropQueue = false): Promise<void> {
    const id = this.id;
    if (!this.busy || !id) {
      void vscode.window.showInformationMessage('agent-lsp: nothing is running.');
      return;
    }
    const { agent } = await this.daemon().agent();
    if (dropQueue) for (const item of this.queue.items) this.queue.removed(item.id);
    await agent.cancel(id, dropQueue);
  }

  /** resume switches to another session (undefined: a new one on the next prompt) and draws its conversation. */
  async resume(id: string | undefined): Promise<void> {
    if (this.busy) await this.cancel(true);
    await this.setId(id);
    this.restoring += 1;
    this.transcript.clear();
    this.queue.clear();
    this.view?.setQueue([]);
    this.state.queued = 0;
    this.state.totals = undefined;
    this.state.spend = undefined;
    this.state.mode = undefined;
    this.plan?.set([]);
    void this.refresh();
    this.view?.reset();
    this.render();
    if (id) await this.restore();
  }

  /**
   * restore redraws the chat from the daemon's copy of the session
   * (agent/transcript); when there is none to be had, the chat says so
   * (see logic/restore.ts). announce false leaves out the "restored" line
   * (a rewind redraws what it kept, and says so itself).
   */
  async restore(announce = true): Promise<void> {
    const id = this.id;
    if (!id) return;
    const generation = ++this.restoring;
    let result;
    let error: unknown;
    try {
      const { agent } = await this.daemon().agent();
      result = await agent.transcript(id);
    } catch (err) {
      error = err;
    }
    // A prompt started or another session was picked meanwhile: theirs wins.
    if (generation !== this.restoring || id !== this.id || this.busy) return;
    const outcome = restoreOutcome(result, error);
    // The session a missing key stopped was never stored: the chat keeps
    // its lines for keySet to send the prompt again.
    if (outcome.kind === 'gone' && this.unsent) {
      await this.setId(undefined);
      return;
    }
    const notice = applyRestore(this.transcript, outcome, result, id);
    if (outcome.kind === 'gone') await this.setId(undefined);
    if (notice && (announce || outcome.kind !== 'restored')) this.transcript.addNotice(notice);
    this.state.totals = this.transcript.totals;
    if (result?.mode) this.state.mode = result.mode;
    if (result) this.plan?.set(result.plan);
    this.view?.reset();
    this.render();
  }

  /** banner keeps a line at the top of the chat, undefined removes it (logic/transcript.ts setBanner). */
  banner(text: string | undefined): void {
    this.view?.changed(this.transcript.setBanner(text));
  }

  /** notice adds a line to the chat (a rewind says what it dropped). */
  notice(text: string): void {
    this.view?.changed([this.transcript.addNotice(text)]);
  }

  private setProgress(message: string | undefined): void {
    this.state.progress = message;
    this.view?.setStatus(message ? `${message}…` : '');
    this.render();
  }

  private render(): void {
    const v = statusView(this.state);
    this.statusItem.text = v.text;
    this.statusItem.tooltip = v.tooltip;
  }
}
