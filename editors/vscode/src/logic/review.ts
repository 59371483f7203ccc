// Hunk review (agent/review) without VS Code: the texts the diff view
// shows, where each hunk sits in them, the quick pick's items, the lens
// titles and the answer built from the user's selection.
//
// A hunk replaces the whole lines startLine..endLine-1 (0-based, endLine
// exclusive) of the text the agent read, exactly oldText, with newText.

import type { ReviewAnswer, ReviewHunk, ReviewParams } from '../protocol';

/** splitLines cuts text into lines that keep their line breaks (the last one may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function matchesAt(lines: readonly string[], start: number, oldText: string): boolean {
  const n = splitLines(oldText).length;
  return start >= 0 && start + n <= lines.length && lines.slice(start, start + n).join('') === oldText;
}

function lineSpan(h: ReviewHunk): string {
  if (h.startLine === h.endLine) return `before line ${h.startLine + 1}`;
  if (h.endLine - h.startLine === 1) return `line ${h.startLine + 1}`;
  return `lines ${h.startLine + 1}–${h.endLine}`;
}

/**
 * applyHunks is text with the accepted hunks applied (every hunk when
 * accepted is undefined). It throws when a hunk's oldText is not at its
 * lines, or hunks overlap: the text is not the one the hunks were made for.
 */
export function applyHunks(text: string, hunks: readonly ReviewHunk[], accepted?: Iterable<number>): string {
  const take = accepted === undefined ? undefined : new Set(accepted);
  const lines = splitLines(text);
  const sorted = [...hunks].sort((a, b) => a.startLine - b.startLine || a.id - b.id);
  let out = '';
  let cursor = 0;
  for (const h of sorted) {
    if (h.startLine < cursor || h.endLine < h.startLine) throw new Error(`hunk ${h.id} overlaps the hunk before it`);
    if (!matchesAt(lines, h.startLine, h.oldText) || splitLines(h.oldText).length !== h.endLine - h.startLine) {
      throw new Error(`hunk ${h.id} does not match ${lineSpan(h)} of the text`);
    }
    out += lines.slice(cursor, h.startLine).join('');
    out += take === undefined || take.has(h.id) ? h.newText : h.oldText;
    cursor = h.endLine;
  }
  return out + lines.slice(cursor).join('');
}

/**
 * locateHunks moves the hunks to where their oldText is in text — the
 * buffer as it is now, which the user may have edited since the agent read
 * it (the daemon rebases the edit that lands; this is only for showing
 * it). A hunk whose oldText is still at its lines stays; one whose lines
 * moved goes to the nearest place after the previous hunk where its
 * oldText is; an insertion follows the shift of the hunk before it. It
 * throws when a hunk's oldText is nowhere.
 */
export function locateHunks(text: string, hunks: readonly ReviewHunk[]): ReviewHunk[] {
  const lines = splitLines(text);
  const sorted = [...hunks].sort((a, b) => a.startLine - b.startLine || a.id - b.id);
  const out: ReviewHunk[] = [];
  let shift = 0;
  let floor = 0;
  for (const h of sorted) {
    const n = h.endLine - h.startLine;
    const want = h.startLine + shift;
    let at: number | undefined;
    if (n === 0) at = Math.min(Math.max(want, floor), lines.length);
    else if (matchesAt(lines, want, h.oldText)) at = want;
    else {
      for (let p = floor; p + n <= lines.length; p++) {
        if (matchesAt(lines, p, h.oldText) && (at === undefined || Math.abs(p - want) < Math.abs(at - want))) at = p;
      }
    }
    if (at === undefined) throw new Error(`the text of hunk ${h.id} (${lineSpan(h)}) is no longer in the document`);
    shift = at - h.startLine;
    floor = at + n;
    out.push({ ...h, startLine: at, endLine: at + n });
  }
  return out;
}

/** Where a hunk's new text starts in the proposed text (every hunk applied). */
export interface HunkPlace {
  id: number;
  /** 0-based line of the proposed text. */
  line: number;
  /** The hunk only deletes: line is the line after the deleted ones. */
  deletes: boolean;
}

/** proposedPlaces says where each hunk lands in the text with every hunk applied, in file order. */
export function proposedPlaces(hunks: readonly ReviewHunk[], proposedLineCount: number): HunkPlace[] {
  const sorted = [...hunks].sort((a, b) => a.startLine - b.startLine || a.id - b.id);
  let delta = 0;
  const last = Math.max(proposedLineCount - 1, 0);
  return sorted.map((h) => {
    const added = splitLines(h.newText).length;
    const place = { id: h.id, line: Math.min(h.startLine + delta, last), deletes: added === 0 };
    delta += added - (h.endLine - h.startLine);
    return place;
  });
}

/** One row of the review quick pick. */
export interface HunkPickItem {
  id: number;
  label: string;
  description: string;
  detail: string;
  picked: boolean;
}

function firstLine(text: string): string {
  const line = (splitLines(text)[0] ?? '').replace(/\r?\n$/, '').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** hunkPickItems are the quick pick's rows, one per hunk in file order, all picked (accepted) at first. */
export function hunkPickItems(hunks: readonly ReviewHunk[]): HunkPickItem[] {
  const total = hunks.length;
  return [...hunks]
    .sort((a, b) => a.startLine - b.startLine || a.id - b.id)
    .map((h) => {
      const removed = splitLines(h.oldText).length;
      const added = splitLines(h.newText).length;
      const parts: string[] = [];
      if (removed > 0) parts.push(`− ${firstLine(h.oldText)}`);
      if (added > 0) parts.push(`+ ${firstLine(h.newText)}`);
      return {
        id: h.id,
        label: `Hunk ${h.id} of ${total}: ${lineSpan(h)}`,
        description: `−${removed} +${added}`,
        detail: parts.join('   '),
        picked: true,
      };
    });
}

/** The titles of a hunk's two lenses; the current choice is checked. */
export function hunkLensTitles(id: number, accepted: boolean): { accept: string; reject: string } {
  return {
    accept: `${accepted ? '$(check) ' : ''}Accept hunk ${id}`,
    reject: `${accepted ? '' : '$(check) '}Reject hunk ${id}`,
  };
}

/**
 * The review quick pick's placeholder. How to confirm comes first and it
 * is short: VS Code cuts a placeholder at the input's width. Escape only
 * hides the pick (the edit waits, resumed from the status bar or the
 * diff's lenses): it is the key people press to look at the diff.
 */
export const reviewPlaceholder = 'Enter: keep the checked hunks · Escape: hide, the edit waits';

/** The lenses over the diff's first line: finish the review as checked, or reject it all. */
export const finishLensTitles = { finish: '$(check-all) Finish: keep the checked hunks', rejectAll: '$(close-all) Reject the whole edit', resume: '$(list-selection) Pick hunks' };

/** The status bar item of a review whose pick was hidden: clicking it shows the pick again. */
export function pendingReviewText(p: Pick<ReviewParams, 'path'>): string {
  return `$(git-compare) Review ${p.path}: waiting`;
}

/** The review quick pick's title: what is reviewed, its risk and why. */
export function reviewTitle(p: Pick<ReviewParams, 'summary' | 'path' | 'risk' | 'reasons'>, note = ''): string {
  const why = p.reasons?.length ? `: ${p.reasons.join('; ')}` : '';
  return `agent-lsp: review ${p.summary || p.path} (risk ${p.risk}${why})${note}`;
}

/** The hunks the user keeps, toggled from the lenses and the quick pick alike. */
export class HunkSelection {
  private readonly accepted: Set<number>;

  constructor(readonly hunks: readonly ReviewHunk[]) {
    this.accepted = new Set(hunks.map((h) => h.id));
  }

  has(id: number): boolean {
    return this.accepted.has(id);
  }

  set(id: number, accept: boolean): void {
    if (!this.hunks.some((h) => h.id === id)) return;
    if (accept) this.accepted.add(id);
    else this.accepted.delete(id);
  }

  /** replace makes exactly these hunks the accepted ones (unknown ids ignored). */
  replace(ids: Iterable<number>): void {
    this.accepted.clear();
    for (const id of ids) this.set(id, true);
  }

  /** The accepted ids in file order. */
  ids(): number[] {
    return this.hunks.map((h) => h.id).filter((id) => this.accepted.has(id));
  }
}

/**
 * reviewAnswer is the answer for the hunks the user kept: reject when
 * none (also when there are no hunks), accept when all, else partial with
 * the kept ids in file order. Feedback goes with any decision, trimmed,
 * left out when empty.
 */
export function reviewAnswer(hunks: readonly ReviewHunk[], acceptedIds: Iterable<number>, feedback?: string): ReviewAnswer {
  const keep = new Set(acceptedIds);
  const accepted = hunks.map((h) => h.id).filter((id) => keep.has(id));
  const answer: ReviewAnswer =
    accepted.length === 0 ? { decision: 'reject' } : accepted.length === hunks.length ? { decision: 'accept' } : { decision: 'partial', acceptedHunks: accepted };
  const note = feedback?.trim();
  if (note) answer.feedback = note;
  return answer;
}

/** What a review cancelled, dismissed or failed answers: nothing lands. */
export const rejectAll: ReviewAnswer = { decision: 'reject' };

/** The summary line of what will be answered, for the feedback box. */
export function selectionSummary(hunks: readonly ReviewHunk[], acceptedIds: Iterable<number>): string {
  const keep = new Set(acceptedIds);
  const ids = hunks.map((h) => h.id);
  const yes = ids.filter((id) => keep.has(id));
  const no = ids.filter((id) => !keep.has(id));
  if (no.length === 0) return ids.length === 1 ? 'Accepting the hunk' : `Accepting all ${ids.length} hunks`;
  if (yes.length === 0) return `Rejecting the whole edit`;
  return `Accepting hunk${yes.length > 1 ? 's' : ''} ${yes.join(', ')} of ${ids.length}; rejecting ${no.join(', ')}`;
}
