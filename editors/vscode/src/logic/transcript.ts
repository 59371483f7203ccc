// The chat transcript as a view model, built from the user's prompts and
// the daemon's agent/update notifications. Rendering is in render.ts.

import type { MentionStatus, PromptResult, Totals, ToolStatus, TranscriptEntry, Update, Usage } from '../protocol';
import { modelLabel } from './models';
import { foldChild, newChild, parentOf, settleChild, taskTool, type ChildProgress } from './subagents';

export type ToolCardStatus = 'running' | ToolStatus;

export type Entry =
  | { kind: 'prompt'; text: string; context?: string }
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string }
  /** child: a `task` call's subagent, its progress nested under the card. */
  | { kind: 'tool'; toolCallId: string; name: string; detail: string; status: ToolCardStatus; output?: string; child?: ChildProgress }
  /** A steer message, where it reached the running turn. */
  | { kind: 'steer'; text: string }
  | { kind: 'round'; usage: Usage; cost?: number }
  | { kind: 'compacted'; beforeTokens: number; afterTokens: number }
  | { kind: 'error'; message: string }
  | { kind: 'notice'; text: string }
  /** A mode or model change. */
  | { kind: 'setting'; text: string }
  /** What became of an @mention: attached, or why not. */
  | { kind: 'mention'; path: string; lines: string; status: MentionStatus; message?: string }
  /** A built-in slash command's answer (no model text streams for it). */
  | { kind: 'command'; name: string; text: string }
  /** A restored session's summary of the conversation compacted away. */
  | { kind: 'summary'; text: string };

export class Transcript {
  readonly entries: Entry[] = [];
  totals?: Totals;
  private readonly toolCards = new Map<string, number>();
  private lastPrompt = -1;
  private banner?: string;
  /** The steer messages shown, by id: the steer update and the queue's leaving both say it. */
  private readonly steers = new Set<string>();

  /** addPrompt appends the user's prompt and returns its index. */
  addPrompt(text: string, context?: string): number {
    this.lastPrompt = this.push(context ? { kind: 'prompt', text, context } : { kind: 'prompt', text });
    return this.lastPrompt;
  }

  /** addSteer shows a steer message where it was delivered; undefined when it is shown already. */
  addSteer(id: string, text: string): number | undefined {
    if (this.steers.has(id)) return undefined;
    this.steers.add(id);
    return this.push({ kind: 'steer', text });
  }

  addNotice(text: string): number {
    return this.push({ kind: 'notice', text });
  }

  /**
   * setBanner keeps a notice at the top of every conversation shown from
   * now on (restricted mode says so); it is added now, and again first
   * after each clear. undefined drops it from the next clear on.
   */
  setBanner(text: string | undefined): number[] {
    this.banner = text;
    return text === undefined ? [] : [this.addNotice(text)];
  }

  /**
   * apply folds one update into the transcript and returns the indices of
   * the entries it added or changed (a text delta extends the last entry
   * when it is text of the same kind).
   */
  apply(u: Update): number[] {
    const parent = parentOf(u);
    if (parent !== undefined) return this.applyChild(parent, u);
    switch (u.kind) {
      case 'text':
      case 'reasoning': {
        const last = this.entries[this.entries.length - 1];
        if (last && last.kind === u.kind) {
          last.text += u.text;
          return [this.entries.length - 1];
        }
        return [this.push({ kind: u.kind, text: u.text })];
      }
      case 'tool_call': {
        const card: Entry = { kind: 'tool', toolCallId: u.toolCallId, name: u.name, detail: toolDetail(u.arguments), status: 'running' };
        if (u.name === taskTool) card.child = newChild(u.arguments);
        const i = this.push(card);
        this.toolCards.set(u.toolCallId, i);
        return [i];
      }
      case 'tool_result': {
        const i = this.toolCards.get(u.toolCallId);
        const card = i === undefined ? undefined : this.entries[i];
        if (i === undefined || !card || card.kind !== 'tool') {
          // A result without its call (a transcript opened mid-prompt): a card of its own.
          return [this.push({ kind: 'tool', toolCallId: u.toolCallId, name: u.name, detail: '', status: u.status, output: u.output })];
        }
        card.status = u.status;
        card.output = u.output;
        return [i];
      }
      case 'round_end':
        this.totals = u.totals;
        return [this.push({ kind: 'round', usage: u.usage, cost: u.cost })];
      case 'compacted':
        this.totals = u.totals;
        return [this.push({ kind: 'compacted', beforeTokens: u.beforeTokens, afterTokens: u.afterTokens })];
      case 'error':
        return [this.push({ kind: 'error', message: u.message })];
      case 'mode':
        return [this.push({ kind: 'setting', text: `Mode: ${u.mode}` })];
      case 'model':
        return [this.push({ kind: 'setting', text: `Model: ${modelLabel(u)}` })];
      case 'mention': {
        const e: Entry = { kind: 'mention', path: u.path, lines: lineRange(u.startLine, u.endLine), status: u.status };
        if (u.message) e.message = u.message;
        return [this.push(e)];
      }
      case 'steer': {
        const i = this.addSteer(u.id, u.prompt);
        return i === undefined ? [] : [i];
      }
      case 'plan':
      case 'queue':
        // The plan has its own view (the Plan tree), the queue its place above the input.
        return [];
      default:
        // A kind this version does not know (a newer daemon): nothing to show.
        return [];
    }
  }

  /**
   * applyChild folds a subagent's update into its task card (one made
   * when the call is not shown: a chat opened while the child ran).
   */
  private applyChild(parent: string, u: Update): number[] {
    let i = this.toolCards.get(parent);
    let card = i === undefined ? undefined : this.entries[i];
    if (i === undefined || !card || card.kind !== 'tool') {
      card = { kind: 'tool', toolCallId: parent, name: taskTool, detail: '', status: 'running', child: newChild(undefined) };
      i = this.push(card);
      this.toolCards.set(parent, i);
    }
    card.child = card.child ?? newChild(undefined);
    if (u.kind === 'round_end') this.totals = u.totals;
    return foldChild(card.child, u, toolDetail) ? [i] : [];
  }

  /**
   * finish notes how a prompt ended when that is not plain: cancelled,
   * stopped at a limit, failed. Tool cards still running are settled.
   */
  finish(r: Pick<PromptResult, 'stopReason' | 'error'> & Partial<Pick<PromptResult, 'command' | 'text'>>): number[] {
    const changed: number[] = [];
    this.entries.forEach((e, i) => {
      if (e.kind === 'tool' && e.status === 'running') {
        e.status = r.stopReason === 'cancelled' ? 'denied' : 'failed';
        e.output = e.output ?? (r.stopReason === 'cancelled' ? 'cancelled' : 'did not finish');
        if (e.child) settleChild(e.child, r.stopReason === 'cancelled');
        changed.push(i);
      }
    });
    // A built-in command answers in the result alone; an MCP prompt's
    // answer has already streamed as text.
    const streamed = this.entries.slice(this.lastPrompt + 1).some((e) => e.kind === 'text');
    if (r.command && r.text && !streamed) changed.push(this.push({ kind: 'command', name: r.command, text: r.text }));
    const note = stopNote(r);
    if (note) changed.push(this.addNotice(note));
    return changed;
  }

  /**
   * load replaces the transcript with a session's stored conversation
   * (agent/transcript): each entry goes through addPrompt or apply, the
   * same folding the live updates get, so a restored chat draws as the
   * live one did. Entries of kinds this version does not know are left out.
   */
  load(entries: readonly TranscriptEntry[], totals?: Totals): void {
    this.clear();
    for (const e of entries) {
      if (e.kind === 'user') {
        const sent = splitSentPrompt(e.text ?? '');
        this.addPrompt(sent.prompt, sent.context);
      } else if (e.kind === 'compacted') {
        this.push({ kind: 'summary', text: e.summary ?? '' });
      } else {
        const u = storedUpdate(e);
        if (u) this.apply(u);
      }
    }
    if (totals) this.totals = totals;
  }

  clear(): void {
    this.entries.length = 0;
    this.toolCards.clear();
    this.steers.clear();
    this.totals = undefined;
    this.lastPrompt = -1;
    if (this.banner !== undefined) this.addNotice(this.banner);
  }

  private push(e: Entry): number {
    this.entries.push(e);
    return this.entries.length - 1;
  }
}

/** storedUpdate is a stored entry as the agent/update it was streamed as (undefined: a kind unknown here). */
function storedUpdate(e: TranscriptEntry): Update | undefined {
  const base = { sessionId: '', seq: 0 };
  switch (e.kind) {
    case 'text':
    case 'reasoning':
      return { ...base, kind: e.kind, text: e.text ?? '' };
    case 'tool_call':
      return { ...base, kind: 'tool_call', toolCallId: e.toolCallId, name: e.name, arguments: e.arguments };
    case 'tool_result':
      return { ...base, kind: 'tool_result', toolCallId: e.toolCallId, name: e.name, status: e.status, output: e.output ?? '' };
    default:
      return undefined;
  }
}

/** What the daemon appends to a prompt it sends: a selection, or an attached file, each with its fenced text. */
const attachment = /\n\n(Selected text in|Attached) ([^\n]+):\n```/g;

/**
 * splitSentPrompt cuts a prompt as the model received it (agent/transcript's
 * user entry) into the user's words and a context line naming what was
 * attached ("review.go (lines 3-5)"), as the live chat shows it.
 */
export function splitSentPrompt(text: string): { prompt: string; context?: string } {
  const found = [...text.matchAll(attachment)];
  if (found.length === 0) return { prompt: text };
  const context = found.map((m) => m[2]).join(', ');
  return { prompt: text.slice(0, found[0].index), context };
}

function stopNote(r: Pick<PromptResult, 'stopReason' | 'error'>): string | undefined {
  switch (r.stopReason) {
    case 'cancelled':
      return 'Cancelled.';
    case 'max_tokens':
      return 'Stopped: the model reached its output limit.';
    case 'max_rounds':
      return 'Stopped: the prompt reached the round limit.';
    case 'error':
      return `Failed: ${r.error ?? 'the model call failed'}`;
  }
  return undefined;
}

/** lineRange: "" (the whole file), "line 3", "lines 3-5". */
export function lineRange(start?: number, end?: number): string {
  if (!start) return '';
  return end && end !== start ? `lines ${start}-${end}` : `line ${start}`;
}

/** The one-line gist of a tool call's arguments shown on its card. */
export function toolDetail(args: unknown): string {
  if (typeof args === 'string') return clip(args, 160);
  if (typeof args !== 'object' || args === null) return '';
  const a = args as Record<string, unknown>;
  const pick = (k: string): string | undefined => (typeof a[k] === 'string' ? (a[k] as string) : undefined);
  const description = pick('description');
  if (description !== undefined && pick('prompt') !== undefined) return clip(description, 160); // a task call
  const command = pick('command');
  if (command !== undefined) return clip(`$ ${command}`, 160);
  const path = pick('path') ?? pick('file_path');
  const pattern = pick('pattern');
  if (path !== undefined && pattern !== undefined) return clip(`${pattern} in ${path}`, 160);
  if (path !== undefined) return clip(path, 160);
  if (pattern !== undefined) return clip(pattern, 160);
  return clip(JSON.stringify(args), 160);
}

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, max - 1) + '…';
}
