// An approval (agent/approve) without VS Code: the answer sent for the
// user's choice, the dialog's title, detail and buttons (in an order
// where Enter is safe), and the proposed text an
// edit's "Show diff" opens, built from the request's fields
// (docs/protocol.md, Structured approval) — nothing is read back from
// text; and the answer to any other window/showMessageRequest.

import type { ApproveAnswer, ApproveOption, ApproveParams, MessageActionItem, ShowMessageRequestParams } from '../protocol';
import { applyHunks, locateHunks } from './review';

/**
 * answerApprove answers one agent/approve: decide gets the params and
 * returns the chosen option's id (undefined: dismissed). Anything that is
 * not an offered option is sent as null, which the daemon takes as Deny.
 */
export async function answerApprove(
  params: ApproveParams,
  decide: (params: ApproveParams) => Promise<string | undefined>,
): Promise<ApproveAnswer | null> {
  const options = params.options ?? [];
  if (options.length === 0) return null;
  const chosen = await decide({ ...params, reasons: params.reasons ?? [], options });
  return options.some((o) => o.id === chosen) ? { optionId: chosen as string } : null;
}

/**
 * answerMessageRequest answers any window/showMessageRequest as a plain
 * message with its buttons: show returns the chosen title (undefined:
 * dismissed); anything that is not an offered title is null.
 */
export async function answerMessageRequest(
  params: ShowMessageRequestParams,
  show: (params: ShowMessageRequestParams, titles: string[]) => Promise<string | undefined>,
): Promise<MessageActionItem | null> {
  const actions = params.actions ?? [];
  const chosen = await show(params, actions.map((a) => a.title));
  return actions.find((a) => a.title === chosen) ?? null;
}

/** What the action does, in plain words: the dialog's title starts with it. */
export function approvalAction(p: Pick<ApproveParams, 'tool' | 'path'>): string {
  const file = p.path ? ` ${p.path}` : '';
  switch (p.tool) {
    case 'run_bash':
      return 'Run command';
    case 'edit_file':
      return `Edit file${file}`;
    case 'write_file':
      return `Write file${file}`;
    case 'read_file':
      return `Read file${file}`;
    case 'glob':
    case 'grep':
      return 'Search files';
    case 'todo_write':
      return 'Update the plan';
  }
  // MCP tools are named mcp__<server>__<tool> (mcp/adapter.go).
  const mcp = /^mcp__(.+?)__(.+)$/.exec(p.tool);
  if (mcp) return `Use ${mcp[1]} tool ${mcp[2]}`;
  return `Use ${p.tool}`;
}

/**
 * The dialog's title: one line, what runs in plain words, the risk and
 * why. The command itself is in the detail only, once.
 */
export function approvalTitle(p: ApproveParams): string {
  const why = p.reasons.length > 0 ? `: ${p.reasons.join('; ')}` : '';
  // A subagent's ask (parentToolCallId): the user is told it is not the session's own.
  const who = p.parentToolCallId ? 'Subagent: ' : '';
  return `${who}${approvalAction(p)}? ${p.risk.toUpperCase()} risk${why}`;
}

/** A dialog shows at most this many diff lines: "Show diff" shows the whole edit. */
export const maxDetailDiffLines = 40;

/**
 * The dialog's detail: the command, or the edit's hunks (cut after
 * maxDetailDiffLines), or for any other action its summary (an MCP call's
 * arguments, the file read).
 */
export function approvalDetail(p: ApproveParams): string {
  // visibleCommand is what the user reads: command may hold a carriage
  // return or a bidi override that would show other text than runs.
  if (p.command !== undefined) return `$ ${p.visibleCommand ?? p.command}`;
  const diff = (p.hunks ?? []).flatMap((h) => h.diff.replace(/\n$/, '').split('\n'));
  if (diff.length === 0) return p.summary;
  if (diff.length > maxDetailDiffLines) {
    return [...diff.slice(0, maxDetailDiffLines), `… (${diff.length - maxDetailDiffLines} more diff lines: Show diff shows them)`].join('\n');
  }
  return diff.join('\n');
}

/** The "Show diff" button of an edit's dialog: it opens the diff and asks again. */
export const showDiffTitle = 'Show diff';

/** One button of the approval dialog, in the order VS Code is given them. */
export interface ApprovalButton {
  title: string;
  /** The option it answers; none for Show diff. */
  optionId?: string;
  /** Escape and the dialog's close button choose it (VS Code's MessageItem.isCloseAffordance). */
  isCloseAffordance: boolean;
  /** It denies and stops the running prompt too (HIGH's close affordance). */
  stops?: boolean;
}

/** The HIGH dialog's close affordance: Escape denies and stops the prompt, as Claude Code's Esc does. */
export const stopTitle = 'Deny and stop the agent';

/**
 * approvalButtons orders the dialog's buttons so that Enter is safe.
 * VS Code (1.139, mainThreadMessageService + base/browser/ui/dialog)
 * focuses the first button that is not the close affordance, so Enter
 * presses it; the close affordance goes last, and when there is none VS
 * Code adds its own "Cancel".
 *
 * HIGH: Deny comes first, the focused primary button; the rest follow.
 * Deny cannot also be the close affordance (it would leave the first
 * place to Allow), so the close affordance is "Deny and stop the agent":
 * Escape denies and cancels the prompt (Claude Code's Esc), a choice of
 * its own rather than VS Code's second, unexplained "Cancel".
 *
 * LOW and MEDIUM: Allow first, as peers do (an ask that is usually
 * allowed; the policy remembers "for this session"), and Deny is the
 * close affordance: Escape denies, and there is no second Cancel.
 */
export function approvalButtons(p: Pick<ApproveParams, 'risk' | 'options'> & Partial<ApproveParams>): ApprovalButton[] {
  const deny = p.options.filter((o) => o.kind === 'deny');
  const allow = p.options.filter((o) => o.kind !== 'deny');
  const button = (o: ApproveOption, isCloseAffordance = false): ApprovalButton => ({ title: o.title, optionId: o.id, isCloseAffordance });
  const diff: ApprovalButton[] = canShowDiff(p as ApproveParams) ? [{ title: showDiffTitle, isCloseAffordance: false }] : [];
  if (p.risk.toLowerCase() === 'high') {
    const stop: ApprovalButton[] = deny.length > 0 ? [{ title: stopTitle, optionId: deny[0].id, isCloseAffordance: true, stops: true }] : [];
    return [...deny.map((o) => button(o)), ...allow.map((o) => button(o)), ...diff, ...stop];
  }
  return [...allow.map((o) => button(o)), ...diff, ...deny.map((o, i) => button(o, i === deny.length - 1))];
}

/** canShowDiff: the approval is an edit of a file with line hunks. */
export function canShowDiff(p: ApproveParams): boolean {
  return (p.hunks ?? []).length > 0 && p.uri !== undefined && p.path !== undefined;
}

/**
 * proposedText is the document's text after the approval's edit: every
 * hunk, placed where its oldText is now (the user may have typed since the
 * agent read the file). It throws when a hunk's text is no longer there.
 */
export function proposedText(current: string, p: ApproveParams): string {
  return applyHunks(current, locateHunks(current, p.hunks ?? []));
}
